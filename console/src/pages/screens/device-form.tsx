import { Group, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceSchema, deviceUpdateSchema, type Device } from '../../../../src/shared/device';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { WriteButton } from '../../ui/write-button';
import { tell } from '../../ui/notify';
import { devicePath, usePlaylists } from './queries';
import { Section } from './section';

/** The Select's value for "no playlist": a Select's values are strings, and no id is empty. */
const NONE = '';

interface DeviceFields {
  name: string;
  description: string;
  playlist_id: string;
}

const toBody = ({ name, description, playlist_id }: DeviceFields) => ({
  name,
  description,
  playlist_id: playlist_id === NONE ? null : playlist_id,
});

/** Renames, describes and assigns a playlist: one save for the three. */
export function DeviceForm({ device }: { device: Device }) {
  const canWrite = useCanWrite();
  const playlists = usePlaylists();
  const queries = useQueryClient();
  const form = useForm<DeviceFields>({
    mode: 'uncontrolled',
    initialValues: {
      name: device.name,
      description: device.description,
      playlist_id: device.playlist_id ?? NONE,
    },
    validate: validateBy(deviceUpdateSchema, toBody),
  });
  const save = useMutation({
    mutationFn: (values: DeviceFields) =>
      api(deviceSchema, devicePath(device.tag), { method: 'PATCH', body: toBody(values) }),
    onSuccess: (saved) => {
      queries.setQueryData(['devices', saved.tag], saved);
      tell(`Screen ${saved.name || saved.tag} saved`, 'green');
    },
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <Section title="Settings">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="sm">
          {save.error && <ErrorAlert error={save.error} />}
          <TextInput
            label="Name"
            disabled={!canWrite}
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            disabled={!canWrite}
            key={form.key('description')}
            {...form.getInputProps('description')}
          />
          <Select
            label="Playlist"
            data={[{ value: NONE, label: 'No playlist' }, ...(playlists.data ?? [])]}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No such playlist"
            disabled={!canWrite}
            key={form.key('playlist_id')}
            {...form.getInputProps('playlist_id')}
          />
          <Group>
            <WriteButton type="submit" loading={save.isPending}>
              Save
            </WriteButton>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
