import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useWriteRefusal } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { BoardEditor } from './boards/editor/board-editor';
import { BoardActions } from './boards/board-actions';
import { contentQuery } from './boards/queries';
import { Loading } from '../ui/loading';

/**
 * One board (`boards/:id`) in its editor, drawn by the player's renderer as screens show it. Live:
 * a `boards` notice brings someone else's save (taken in while nothing is edited), a `flows`
 * notice the widgets' data.
 */
export default function BoardPage() {
  const { id = '' } = useParams();
  const refusal = useWriteRefusal();
  const canWrite = refusal === null;
  const content = useQuery(contentQuery(id));
  const board = content.data?.board;
  return (
    <>
      <PageHeader
        title={board ? board.name : 'Board'}
        actions={board && <BoardActions board={board} />}
        description={
          <>
            As screens show it. Boards are played by{' '}
            <Anchor component={Link} to="/playlists" size="sm" underline="always">
              playlists
            </Anchor>
            .
          </>
        }
      />
      {content.error && <ErrorAlert error={content.error} title="The board could not be loaded" />}
      {!canWrite && (
        <Alert color="gray" mb="md" role="note">
          {refusal}
        </Alert>
      )}
      {content.isPending && <Loading label="Loading the board" />}
      {content.data && <BoardEditor key={id} content={content.data} />}
    </>
  );
}
