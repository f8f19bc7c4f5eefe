import { Anchor, Button, Checkbox, FileButton, Modal, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Board } from '../../../src/shared/board';
import { send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { allToggled, kept, toggled } from '../ui/bulk';
import { SelectAll } from '../ui/bulk-bar';
import { WriteButton } from '../ui/write-button';
import { BoardsBulk } from './boards/bulk-actions';
import { widgetsQuery } from './boards/queries';
import { NewBoard } from './boards/templates/new-board';
import { downloadExport, duplicateBoard, importFile } from './boards/transfer';
import { boardsQuery } from './playlists/queries';

const COLUMNS = ['Name', 'Theme', 'Grid', 'Widgets', 'Changed'];

export default function BoardsPage() {
  const boards = useQuery(boardsQuery);
  const widgets = useQueries({ queries: (boards.data ?? []).map((board) => widgetsQuery(board.id)) });
  const queries = useQueryClient();
  const phone = useMediaQuery('(max-width: 48em)');
  const [creating, setCreating] = useState(false);
  const ids = useMemo(() => (boards.data ?? []).map((board) => board.id), [boards.data]);
  // The boards selected for a bulk action; those gone meanwhile (deleted here or elsewhere) drop out.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const selected = useMemo(() => kept(chosen, ids), [chosen, ids]);
  const picked = (boards.data ?? []).filter((board) => selected.has(board.id));
  const refresh = () => queries.invalidateQueries({ queryKey: ['boards'] });
  const remove = useMutation({
    mutationFn: (id: string) => send(`/boards/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    // Playlists that played it have lost the item.
    onSettled: () =>
      Promise.all(['boards', 'playlists'].map((key) => queries.invalidateQueries({ queryKey: [key] }))),
  });
  // An import or a duplicate publishes no event (no screen shows the new board yet): refetch here.
  const importing = useMutation({ mutationFn: importFile, onSuccess: refresh });
  const duplicate = useMutation({ mutationFn: duplicateBoard, onSuccess: refresh });
  const exporting = useMutation({ mutationFn: (board: Board) => downloadExport(board.id, board.name) });
  const askDelete = async (board: Board) => {
    const sure = await confirmAction({
      title: `Delete “${board.name}”?`,
      body: 'Its widgets go with it (their flows stay), and playlists that play it lose it.',
      confirm: 'Delete the board',
    });
    if (sure) remove.mutate(board.id);
  };
  const error = remove.error ?? importing.error ?? duplicate.error ?? exporting.error;
  return (
    <>
      <PageHeader
        title="Boards"
        description="Widgets on a grid, showing flows' data; playlists put them on screens."
        actions={
          <>
            <FileButton onChange={(file) => file && importing.mutate(file)} accept="application/json,.json">
              {(props) => (
                <WriteButton variant="default" loading={importing.isPending} {...props}>
                  Import a board
                </WriteButton>
              )}
            </FileButton>
            <WriteButton onClick={() => setCreating(true)}>New board</WriteButton>
          </>
        }
      />
      {boards.error && <ErrorAlert error={boards.error} title="The boards could not be listed" />}
      {error && (
        <ErrorAlert
          error={error}
          title={importing.error ? 'The board was not imported' : 'The service refused'}
        />
      )}
      <BoardsBulk boards={picked} onClear={() => setChosen(new Set())} />
      <Table.ScrollContainer
        minWidth={800}
        scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'The boards' } }}
      >
        <Table striped highlightOnHover aria-label="The boards">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <SelectAll
                  label="Select every board"
                  selection={selected}
                  shown={ids}
                  onChange={() => setChosen((current) => allToggled(kept(current, ids), ids))}
                />
              </Table.Th>
              {COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {boards.data?.map((board, index) => (
              <Table.Tr key={board.id}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${board.name}`}
                    checked={selected.has(board.id)}
                    onChange={() => setChosen((current) => toggled(kept(current, ids), board.id))}
                  />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/boards/${board.id}`}>
                    {board.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{board.theme}</Table.Td>
                <Table.Td>{`${board.columns} x ${board.rows}`}</Table.Td>
                <Table.Td>{widgets[index]?.data?.length ?? '…'}</Table.Td>
                <Table.Td>
                  <TimeAgo iso={board.updated_at} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="xs"
                    variant="subtle"
                    onClick={() => exporting.mutate(board)}
                    aria-label={`Export ${board.name}`}
                  >
                    Export
                  </Button>
                  <WriteButton
                    size="xs"
                    variant="subtle"
                    onClick={() => duplicate.mutate(board.id)}
                    aria-label={`Duplicate ${board.name}`}
                  >
                    Duplicate
                  </WriteButton>
                  <WriteButton
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => void askDelete(board)}
                    aria-label={`Delete ${board.name}`}
                  >
                    Delete
                  </WriteButton>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {boards.data?.length === 0 && (
        <Text c="dimmed">No boards yet: create one, from a template or blank, or import an export.</Text>
      )}
      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title="New board"
        size="xl"
        fullScreen={phone}
      >
        {creating && <NewBoard onDone={() => setCreating(false)} />}
      </Modal>
    </>
  );
}
