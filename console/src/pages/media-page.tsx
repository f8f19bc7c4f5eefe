import '@mantine/dropzone/styles.css';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { useDeleteMedia } from './media/delete-media';
import { MediaCard } from './media/media-card';
import { mediaQuery } from './media/media-query';
import { UploadQueue } from './media/upload-queue';

export default function MediaPage() {
  // Fresh on every visit: playlists and boards changed elsewhere change where each is used, and
  // their notices do not make the library stale.
  const library = useQuery({ ...mediaQuery, refetchOnMount: 'always' });
  const remove = useDeleteMedia();
  const media = library.data?.media;
  return (
    <>
      <PageHeader
        title="Media"
        description="Images, videos and sounds for playlists, board backgrounds and notifications."
      />
      <Stack gap="lg">
        <UploadQueue maxBytes={library.data?.maxBytes ?? null} />
        {library.error && <ErrorAlert error={library.error} title="The media library could not be listed" />}
        {remove.error && <ErrorAlert error={remove.error} title="The medium could not be deleted" />}
        <section aria-labelledby="library-title">
          <Title order={2} size="h4" mb="sm" id="library-title">
            Library{media ? ` (${media.length})` : ''}
          </Title>
          {media?.length === 0 && <Text c="dimmed">Nothing uploaded yet.</Text>}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
            {media?.toReversed().map((medium) => (
              <MediaCard key={medium.id} media={medium} onDelete={() => remove.mutate(medium)} />
            ))}
          </SimpleGrid>
        </section>
      </Stack>
    </>
  );
}
