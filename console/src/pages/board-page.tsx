import { Alert, Anchor, Grid, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Board } from '../../../src/shared/board';
import { useCanWrite } from '../session/session';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { VIEWER_MESSAGE } from '../ui/write-button';
import BoardPreview from './boards/board-preview';
import { BoardSettings } from './boards/board-settings';
import { boardDataQuery, boardExportQuery, contentQuery } from './boards/queries';
import { WidgetList } from './boards/widget-list';

/**
 * One board (`boards/:id`): drawn by the player's renderer as screens show it, its settings, and
 * its widgets. Live: a `boards` notice redraws the layout, a `flows` notice the widgets' data.
 */
export default function BoardPage() {
  const { id = '' } = useParams();
  const canWrite = useCanWrite();
  const content = useQuery(contentQuery(id));
  const board = content.data?.board;
  const saved = useQuery(boardExportQuery(id));
  const data = useQuery(boardDataQuery(id));
  /** The settings being edited, when they pass: the preview shows them before they are saved. */
  const [draft, setDraft] = useState<Partial<Board> | null>(null);
  const shown = useMemo(
    () => (saved.data && draft ? { ...saved.data, ...draft } : saved.data),
    [saved.data, draft],
  );
  const error = content.error ?? saved.error;
  return (
    <>
      <PageHeader
        title={board ? board.name : 'Board'}
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
      {error && <ErrorAlert error={error} title="The board could not be loaded" />}
      {!canWrite && (
        <Alert color="gray" mb="md" role="note">
          {VIEWER_MESSAGE}
        </Alert>
      )}
      {(content.isPending || saved.isPending) && !error && <Loader aria-label="Loading the board" />}
      {content.data && shown && (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Stack gap="lg">
              <section aria-labelledby="preview-title">
                <Title order={2} size="h4" id="preview-title" mb="sm">
                  Preview{' '}
                  {draft && (
                    <Text span c="dimmed" size="sm">
                      (unsaved settings)
                    </Text>
                  )}
                </Title>
                <BoardPreview board={shown} data={data.data} />
              </section>
              <section aria-labelledby="widgets-title">
                <Title order={2} size="h4" id="widgets-title" mb="sm">
                  Widgets
                </Title>
                <WidgetList boardId={id} />
              </section>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Paper withBorder p="md">
              <Title order={2} size="h4" mb="sm">
                Settings
              </Title>
              <BoardSettings content={content.data} onDraft={setDraft} />
            </Paper>
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
