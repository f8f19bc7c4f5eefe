import { Button, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { deviceSchema, type Device } from '../../../../src/shared/device';
import { pairingClaimSchema, PAIRING_CODE_LENGTH } from '../../../../src/shared/pairing';
import { api, ApiError } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { fieldErrorsOf, validateBy } from '../../ui/form';
import { tell } from '../../ui/notify';
import { usePlaylists } from './queries';
import { EditModal } from '../../ui/edit-modal';

interface PairFields {
  code: string;
  name: string;
  playlist_id: string | null;
}

const toBody = ({ code, name, playlist_id }: PairFields) => ({
  code,
  name: name.trim() || undefined,
  playlist_id: playlist_id ?? undefined,
});

function PairForm({ code, onPaired }: { code: string; onPaired: (device: Device) => void }) {
  const playlists = usePlaylists();
  const queries = useQueryClient();
  const form = useForm<PairFields>({
    mode: 'uncontrolled',
    initialValues: { code, name: '', playlist_id: null },
    validate: validateBy(pairingClaimSchema, toBody),
  });
  const claim = useMutation({
    mutationFn: (values: PairFields) =>
      api(deviceSchema, '/pairings/claim', { method: 'POST', body: toBody(values) }),
    onSuccess: (device) => {
      queries.setQueryData(['devices', device.tag], device);
      onPaired(device);
    },
    onError: (error) => {
      // An unknown or expired code is the code's fault: said where it was typed.
      if (error instanceof ApiError && error.code === 'not_found') form.setErrors({ code: error.message });
      else form.setErrors(fieldErrorsOf(error));
    },
  });
  const codeRefused = claim.error instanceof ApiError && claim.error.code === 'not_found';
  return (
    <form onSubmit={form.onSubmit((values) => claim.mutate(values))} noValidate>
      <Stack>
        {claim.error && !codeRefused && <ErrorAlert error={claim.error} />}
        <TextInput
          label="Code"
          description={`The ${PAIRING_CODE_LENGTH} characters the new screen shows`}
          placeholder="7HK3MQ"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          // A code that came filled in (the screen's QR code) leaves the name to type next.
          data-autofocus={code === '' ? true : undefined}
          key={form.key('code')}
          {...form.getInputProps('code')}
        />
        <TextInput
          label="Name"
          description="Where it hangs or what it is for (optional)"
          data-autofocus={code === '' ? undefined : true}
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <Select
          label="Playlist"
          description="What it plays once paired (optional)"
          placeholder={playlists.isPending ? 'Loading…' : 'No playlist'}
          data={playlists.data ?? []}
          searchable
          clearable
          nothingFoundMessage="No such playlist"
          key={form.key('playlist_id')}
          {...form.getInputProps('playlist_id')}
        />
        <Button type="submit" loading={claim.isPending}>
          Pair the screen
        </Button>
      </Stack>
    </form>
  );
}

/**
 * Pairs a new screen by the code it shows (`code`: filled in, from the screen's QR code); the
 * screen's page follows.
 */
export function PairModal({
  opened,
  code = '',
  onClose,
}: {
  opened: boolean;
  code?: string;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const paired = (device: Device) => {
    onClose();
    tell(`Screen ${device.name || device.tag} paired`, 'green');
    void navigate(`/screens/${encodeURIComponent(device.tag)}`);
  };
  return (
    <EditModal opened={opened} onClose={onClose} title="Pair a screen">
      <PairForm code={code} onPaired={paired} />
    </EditModal>
  );
}
