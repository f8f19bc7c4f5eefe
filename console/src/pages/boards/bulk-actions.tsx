import { Button, List, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Board } from '../../../../src/shared/board';
import { send } from '../../api/client';
import { BulkBar, useBulkRun } from '../../ui/bulk-bar';
import { counted } from '../../ui/bulk';
import { confirmAction } from '../../ui/confirm';
import { tell } from '../../ui/notify';
import { playlistsQuery, screensQuery } from '../playlists/queries';
import { groupsQuery } from '../schedules/queries';
import { downloadExports } from './transfer';
import { usageLines, usageOf } from './usage';

/**
 * What the boards list does with the boards selected (the console's shared bulk bar): export them
 * into one file, or delete them after a confirmation that says which playlists, schedules and
 * screens lose them.
 */
export function BoardsBulk({ boards, onClear }: { boards: readonly Board[]; onClear: () => void }) {
  const queries = useQueryClient();
  const bulk = useBulkRun();
  const exporting = useMutation({
    mutationFn: () => downloadExports(boards.map((board) => board.id)),
    onError: (error) => tell(`The boards were not exported: ${error.message}`, 'red'),
  });
  const askDelete = async () => {
    const picked = [...boards];
    // Read now, not from lists some minutes old: the summary is what the deletion will touch.
    const [playlists, groups, screens] = await Promise.all([
      queries.fetchQuery({ ...playlistsQuery, staleTime: 0 }),
      queries.fetchQuery({ ...groupsQuery, staleTime: 0 }),
      queries.fetchQuery({ ...screensQuery, staleTime: 0 }),
    ]);
    const usage = usageOf(new Set(picked.map((board) => board.id)), playlists, groups, screens);
    const sure = await confirmAction({
      title: `Delete ${counted(picked.length, 'board')}?`,
      body: (
        <Stack gap="xs">
          <Text size="sm">
            {picked.map((board) => board.name).join(', ')}: their widgets go with them (their flows stay).
          </Text>
          <List size="sm" data-testid="delete-summary">
            {usageLines(usage).map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </Stack>
      ),
      confirm: `Delete ${counted(picked.length, 'board')}`,
    });
    if (!sure) return;
    // One by one: each deletion takes its board out of its playlists in a transaction of its own.
    await bulk.run(
      picked,
      (board) => board.name,
      (board) => send(`/boards/${encodeURIComponent(board.id)}`, { method: 'DELETE' }),
      { verb: 'Deleted', noun: 'board' },
    );
    onClear();
    await Promise.all(['boards', 'playlists'].map((key) => queries.invalidateQueries({ queryKey: [key] })));
  };
  const deleting = useMutation({
    mutationFn: askDelete,
    onError: (error) => tell(`What uses the boards could not be read: ${error.message}`, 'red'),
  });
  return (
    <BulkBar
      count={boards.length}
      noun="board"
      onClear={onClear}
      bulk={bulk}
      onDelete={() => deleting.mutate()}
      deleting={deleting.isPending}
    >
      <Button
        size="xs"
        variant="default"
        loading={exporting.isPending}
        disabled={bulk.running}
        onClick={() => exporting.mutate()}
      >
        Export
      </Button>
    </BulkBar>
  );
}
