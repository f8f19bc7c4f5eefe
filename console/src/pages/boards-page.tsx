import { Anchor, Button, FileButton, Modal, Table, Text } from '@mantine/core';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { boardCreateSchema, boardSchema, type Board } from '../../../src/shared/board';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { ListTable } from '../ui/list-table';
import { NameForm } from '../ui/name-form';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { WriteButton } from '../ui/write-button';
import { widgetsQuery } from './boards/queries';
import { downloadExport, duplicateBoard, importFile } from './boards/transfer';
import { boardsQuery } from './playlists/queries';

export default function BoardsPage() {
  const boards = useQuery(boardsQuery);
  const widgets = useQueries({ queries: (boards.data ?? []).map((board) => widgetsQuery(board.id)) });
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
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
      <ListTable
        label="The boards"
        minWidth={760}
        columns={['Name', 'Theme', 'Grid', 'Widgets', 'Changed']}
        actions
      >
        {boards.data?.map((board, index) => (
          <Table.Tr key={board.id}>
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
      </ListTable>
      {boards.data?.length === 0 && <Text c="dimmed">No boards yet: create one or import an export.</Text>}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New board">
        {creating && (
          <NameForm
            schema={boardCreateSchema}
            save={(body) => api(boardSchema, '/boards', { method: 'POST', body })}
            submit="Create the board"
            onDone={(board) => {
              setCreating(false);
              void refresh();
              void navigate(`/boards/${board.id}`);
            }}
          />
        )}
      </Modal>
    </>
  );
}
