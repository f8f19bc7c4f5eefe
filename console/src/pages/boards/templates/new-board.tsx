import { Alert, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { boardCreateSchema, boardSchema } from '../../../../../src/shared/board';
import { api } from '../../../api/client';
import { ErrorAlert } from '../../../ui/error-panel';
import { NameForm } from '../../../ui/name-form';
import { createFromTemplate, templatesQuery } from './queries';
import { TemplateCard } from './template-card';

/**
 * What "New board" offers: a blank board by its name, or a ready one from the gallery, made in one
 * click with its sample data and a disabled script; either way the new board opens in the editor.
 */
export function NewBoard({ onDone }: { onDone: () => void }) {
  const templates = useQuery(templatesQuery);
  const queries = useQueryClient();
  const navigate = useNavigate();
  const open = async (id: string) => {
    onDone();
    // A new board publishes no device event (no screen shows it yet): the list refetches here.
    await queries.invalidateQueries({ queryKey: ['boards'] });
    await navigate(`/boards/${encodeURIComponent(id)}`);
  };
  const fromTemplate = useMutation({ mutationFn: createFromTemplate, onSuccess: open });
  return (
    <Stack gap="md">
      <Card withBorder padding="sm" radius="md">
        <Title order={3} size="h5">
          Blank
        </Title>
        <Text size="sm" c="dimmed" mb="xs">
          An empty board to place widgets on yourself.
        </Text>
        <NameForm
          schema={boardCreateSchema}
          save={(body) => api(boardSchema, '/boards', { method: 'POST', body })}
          submit="Create the board"
          onDone={(board) => void open(board.id)}
        />
      </Card>
      <Title order={3} size="h4">
        Or start from a template
      </Title>
      <Text size="sm" c="dimmed">
        Each comes filled with sample data and a script, switched off, that shows how to feed it your own.
      </Text>
      {templates.error && <ErrorAlert error={templates.error} title="The templates could not be listed" />}
      {fromTemplate.error && (
        <ErrorAlert error={fromTemplate.error} title="The board was not created from the template" />
      )}
      {templates.data?.length === 0 && <Alert>No templates on this service.</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
        {templates.data?.map((template) => (
          <TemplateCard
            key={template.id}
            template={template}
            busy={fromTemplate.isPending && fromTemplate.variables === template.id}
            disabled={fromTemplate.isPending}
            onUse={() => fromTemplate.mutate(template.id)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
