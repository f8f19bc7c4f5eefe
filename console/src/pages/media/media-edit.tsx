import { Button, Group, Stack, TagsInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { mediaSchema, mediaUpdateSchema, type Media } from '../../../../src/shared/media';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { EditModal } from '../../ui/edit-modal';

interface Values {
  name: string;
  tags: string[];
  /** `datetime-local`'s value in the browser's time zone; empty: never expires. */
  expires: string;
}

/** A `datetime-local` value (local time, minutes) from an ISO instant, and back. */
export function localInput(iso: string | null): string {
  if (iso === null) return '';
  const at = new Date(iso);
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The PATCH body; an unreadable date is sent as typed, for the schema to say so on its field. */
export function toUpdate(values: Values) {
  const at = Date.parse(values.expires);
  return {
    name: values.name,
    tags: values.tags,
    expires_at: values.expires === '' ? null : Number.isNaN(at) ? values.expires : new Date(at).toISOString(),
  };
}

/**
 * Renames a medium, sets its tags and its expiry (`PATCH /media/:id`): the screens stop playing
 * it at that time by their own clocks, offline too (docs/api/media.md).
 */
export function MediaEdit({ media, onClose }: { media: Media | null; onClose: () => void }) {
  return (
    <EditModal opened={media !== null} onClose={onClose} title={media ? `Edit “${media.name}”` : ''}>
      {media && <EditForm media={media} onClose={onClose} />}
    </EditModal>
  );
}

function EditForm({ media, onClose }: { media: Media; onClose: () => void }) {
  const queries = useQueryClient();
  const form = useForm<Values>({
    initialValues: { name: media.name, tags: media.tags, expires: localInput(media.expires_at) },
    validate: validateBy(mediaUpdateSchema, toUpdate),
  });
  const save = useMutation({
    mutationFn: (values: Values) =>
      api(mediaSchema, `/media/${encodeURIComponent(media.id)}`, { method: 'PATCH', body: toUpdate(values) }),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ['media'] });
      onClose();
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
      <Stack>
        {save.error && <ErrorAlert error={save.error} title="The medium was not saved" />}
        <TextInput label="Name" data-autofocus {...form.getInputProps('name')} />
        <TagsInput
          label="Tags"
          description="Press Enter after each; used to find and select media."
          clearable
          {...form.getInputProps('tags')}
        />
        <TextInput
          type="datetime-local"
          label="Stops playing at"
          description="Empty: plays until it is taken out. Screens go by their own clocks, offline too."
          {...form.getInputProps('expires')}
          error={form.errors.expires ?? form.errors.expires_at}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
