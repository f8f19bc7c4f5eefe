import { List, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataSource } from '../../../../src/shared/data-source';
import { send } from '../../api/client';
import { confirmAction } from '../../ui/confirm';
import { tell } from '../../ui/notify';
import { bindingsQuery, sourcePath } from './queries';
import { deletionWords } from './words';

/**
 * Deletes a source after asking, naming the flows it feeds (read afresh from the service, not
 * from what the page last heard). Resolves true once deleted.
 */
export function useDeleteSource() {
  const queries = useQueryClient();
  const remove = useMutation({
    mutationFn: (source: DataSource) => send(sourcePath(source.id), { method: 'DELETE' }),
    onSuccess: (_, source) => {
      tell(`Deleted ${source.name}`);
      queries.removeQueries({ queryKey: ['data-sources', source.id] });
      void queries.invalidateQueries({ queryKey: ['data-sources'] });
    },
  });
  const ask = async (source: DataSource): Promise<boolean> => {
    const bindings = await queries
      .fetchQuery({ ...bindingsQuery(source.id), staleTime: 0 })
      .catch(() => null);
    const tags = bindings?.map((binding) => binding.flow_tag) ?? [];
    const confirmed = await confirmAction({
      title: `Delete ${source.name}?`,
      confirm: 'Delete the source',
      body: (
        <Stack gap="xs">
          <Text size="sm">{deletionWords(source.name, tags)}</Text>
          {tags.length > 0 && (
            <List size="sm">
              {tags.map((tag) => (
                <List.Item key={tag}>{tag}</List.Item>
              ))}
            </List>
          )}
          {bindings === null && (
            <Text size="sm" c="red">
              Which flows it feeds could not be read.
            </Text>
          )}
        </Stack>
      ),
    });
    if (!confirmed) return false;
    await remove.mutateAsync(source);
    return true;
  };
  return { ask, error: remove.error, pending: remove.isPending };
}
