import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { Board } from '../../../../src/shared/board';
import { tell } from '../../ui/notify';
import { WriteButton } from '../../ui/write-button';
import { downloadExport, duplicateBoard } from './transfer';

/** The board as saved, downloaded as its export file, or copied into a new board opened at once. */
export function BoardActions({ board }: { board: Board }) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  const exporting = useMutation({
    mutationFn: () => downloadExport(board.id, board.name),
    onError: (error) => tell(`The board was not exported: ${error.message}`, 'red'),
  });
  const duplicate = useMutation({
    mutationFn: () => duplicateBoard(board.id),
    onSuccess: async (id) => {
      await queries.invalidateQueries({ queryKey: ['boards'] });
      await navigate(`/boards/${encodeURIComponent(id)}`);
    },
    onError: (error) => tell(`The board was not duplicated: ${error.message}`, 'red'),
  });
  return (
    <>
      <Button variant="default" loading={exporting.isPending} onClick={() => exporting.mutate()}>
        Export the saved board
      </Button>
      <WriteButton variant="default" loading={duplicate.isPending} onClick={() => duplicate.mutate()}>
        Duplicate
      </WriteButton>
    </>
  );
}
