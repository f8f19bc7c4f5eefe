import { Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useCanWrite } from '../../session/session';
import { fieldErrorsOf } from '../../ui/form';
import { usePlaylists } from './queries';
import type { ScreenDraft } from './screen-draft';
import { Section } from './section';

/** The Select's value for "no playlist": a Select's values are strings, and no id is empty. */
const NONE = '';

/**
 * Renames, describes and assigns a playlist: fields of the page's draft, written by its one Save
 * (docs/console.md, "One save model").
 */
export function DeviceForm({ draft }: { draft: ScreenDraft }) {
  const canWrite = useCanWrite();
  const playlists = usePlaylists();
  const refused = fieldErrorsOf(draft.error);
  const errorOf = (field: 'name' | 'description') => draft.errors[field] ?? refused[field];
  return (
    <Section title="Settings">
      <Stack gap="sm">
        <TextInput
          label="Name"
          disabled={!canWrite}
          value={draft.values.name}
          error={errorOf('name')}
          onChange={(event) => draft.set('name', event.currentTarget.value)}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          disabled={!canWrite}
          value={draft.values.description}
          error={errorOf('description')}
          onChange={(event) => draft.set('description', event.currentTarget.value)}
        />
        <Select
          label="Playlist"
          data={[{ value: NONE, label: 'No playlist' }, ...(playlists.data ?? [])]}
          searchable
          allowDeselect={false}
          nothingFoundMessage="No such playlist"
          disabled={!canWrite}
          value={draft.values.playlist_id ?? NONE}
          onChange={(id) => draft.set('playlist_id', id || null)}
        />
      </Stack>
    </Section>
  );
}
