import '@mantine/dropzone/styles.css';
import { faMagnifyingGlass } from '@fortawesome/free-solid-svg-icons';
import { Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Media } from '../../../src/shared/media';
import { allToggled, kept, toggled } from '../ui/bulk';
import { SelectAll } from '../ui/bulk-bar';
import { ErrorAlert } from '../ui/error-panel';
import { FaIcon } from '../ui/fa-icon';
import { PageHeader } from '../ui/page-header';
import { useDeleteMedia } from './media/delete-media';
import { MediaBulk } from './media/media-bulk';
import { MediaCard } from './media/media-card';
import { MediaEdit } from './media/media-edit';
import { mediaQuery } from './media/media-query';
import { filterMedia, libraryTags } from './media/media-tags';
import { useReplaceFile } from './media/replace-file';
import { UploadQueue } from './media/upload-queue';

export default function MediaPage() {
  // Fresh on every visit: playlists and boards changed elsewhere change where each is used, and
  // their notices do not make the library stale.
  const library = useQuery({ ...mediaQuery, refetchOnMount: 'always' });
  const remove = useDeleteMedia();
  const replace = useReplaceFile();
  const [editing, setEditing] = useState<Media | null>(null);
  // The tag and the search are in the address, so going back finds them.
  const [params, setParams] = useSearchParams();
  const tag = params.get('tag');
  const search = params.get('q') ?? '';
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const media = library.data?.media;
  const tags = useMemo(() => libraryTags(media ?? []), [media]);
  // Newest first.
  const shown = useMemo(() => filterMedia(media ?? [], tag, search).toReversed(), [media, tag, search]);
  const shownIds = shown.map((medium) => medium.id);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const selected = useMemo(() => {
    const present = kept(
      chosen,
      (media ?? []).map((medium) => medium.id),
    );
    return (media ?? []).filter((medium) => present.has(medium.id));
  }, [chosen, media]);
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
        {replace.error && <ErrorAlert error={replace.error} title="The file was not replaced" />}
        <section aria-labelledby="library-title">
          <Title order={2} size="h4" mb="sm" id="library-title">
            Library{media ? ` (${media.length})` : ''}
          </Title>
          {media?.length === 0 && <Text c="dimmed">Nothing uploaded yet.</Text>}
          {media && media.length > 0 && (
            <Group mb="sm" gap="sm" align="flex-end">
              <TextInput
                label="Search"
                placeholder="Name"
                type="search"
                leftSection={<FaIcon icon={faMagnifyingGlass} />}
                value={search}
                onChange={(event) => setParam('q', event.currentTarget.value)}
                style={{ flex: '1 1 12rem' }}
              />
              <Select
                label="Tag"
                placeholder="Every tag"
                clearable
                data={tags.map(({ tag: value, count }) => ({ value, label: `${value} (${count})` }))}
                value={tags.find((known) => known.tag.toLowerCase() === tag?.toLowerCase())?.tag ?? null}
                onChange={(value) => setParam('tag', value)}
                style={{ flex: '0 1 14rem' }}
              />
            </Group>
          )}
          <MediaBulk selected={selected} onClear={() => setChosen(new Set())} />
          {shown.length > 0 && (
            <Group gap="xs" mb="xs">
              <SelectAll
                label="Select every medium shown"
                selection={chosen}
                shown={shownIds}
                onChange={() => setChosen((current) => allToggled(current, shownIds))}
              />
              <Text size="sm" c="dimmed" aria-hidden>
                Select all shown ({shown.length})
              </Text>
            </Group>
          )}
          {media && media.length > 0 && shown.length === 0 && <Text c="dimmed">No medium matches.</Text>}
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="md">
            {shown.map((medium) => (
              <MediaCard
                key={medium.id}
                media={medium}
                selected={chosen.has(medium.id)}
                onToggle={() => setChosen((current) => toggled(current, medium.id))}
                onEdit={() => setEditing(medium)}
                onDelete={() => remove.mutate(medium)}
                replace={replace}
              />
            ))}
          </SimpleGrid>
        </section>
      </Stack>
      <MediaEdit media={editing} onClose={() => setEditing(null)} />
    </>
  );
}
