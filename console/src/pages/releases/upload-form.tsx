import {
  Alert,
  Button,
  FileButton,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { releaseSchema, type ReleaseKind } from '../../../../src/shared/release';
import { api } from '../../api/client';
import { useCanWrite } from '../../session/session';
import { ErrorAlert } from '../../ui/error-panel';
import { tell } from '../../ui/notify';
import { WriteButton } from '../../ui/write-button';
import { formatBytes } from '../media/format';
import { KIND_LABELS } from './queries';
import { missingOf, releaseForm, releasePathOf, type PickedFile } from './upload-files';

const HOW: Record<ReleaseKind, string> = {
  shell:
    'Pick what electron-builder wrote for this version: latest.yml or latest-linux.yml, the installer (.exe, .AppImage, .dmg) and its .blockmap. The version and every checksum are read from the .yml.',
  web: 'Pick the folder of the built web player (dist/renderer), with the release.json that "node tools/release-manifest.ts dist/renderer" wrote in it. The version and every checksum are read from it.',
};

const CHANNELS = [
  { value: 'stable', label: 'Stable' },
  { value: 'beta', label: 'Beta' },
];

/** Uploading a release: what kind, which channel, notes, and the files, with what is needed said. */
export function UploadForm() {
  const canWrite = useCanWrite();
  const queries = useQueryClient();
  const [kind, setKind] = useState<ReleaseKind>('shell');
  const [channel, setChannel] = useState('stable');
  const [notes, setNotes] = useState('');
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const upload = useMutation({
    mutationFn: () =>
      api(releaseSchema, '/releases', {
        method: 'POST',
        body: releaseForm({ kind, channel, notes }, picked),
      }),
    onSuccess: (release) => {
      tell(`${KIND_LABELS[release.kind]} ${release.version} is uploaded`, 'green');
      setPicked([]);
      setNotes('');
      void queries.invalidateQueries({ queryKey: ['releases'] });
    },
  });
  const pick = (files: File[]) => {
    upload.reset();
    setPicked(files.map((file) => ({ name: releasePathOf(file), file })));
  };
  const missing = missingOf(kind, picked);
  const bytes = picked.reduce((sum, one) => sum + one.file.size, 0);
  return (
    <Paper withBorder p="md" component="section" aria-label="Upload a release">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Upload a release
        </Title>
        <SegmentedControl
          aria-label="Kind"
          value={kind}
          onChange={(value) => {
            setKind(value as ReleaseKind);
            setPicked([]);
            upload.reset();
          }}
          data={[
            { value: 'shell', label: KIND_LABELS.shell },
            { value: 'web', label: KIND_LABELS.web },
          ]}
          disabled={!canWrite}
        />
        <Text size="sm" c="dimmed">
          {HOW[kind]}
        </Text>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Channel"
            data={CHANNELS}
            value={channel}
            onChange={(value) => setChannel(value ?? 'stable')}
            allowDeselect={false}
            disabled={!canWrite}
            w={140}
          />
          {kind === 'shell' ? (
            <FileButton onChange={pick} multiple disabled={!canWrite}>
              {(props) => (
                <Button variant="default" {...props}>
                  Pick files…
                </Button>
              )}
            </FileButton>
          ) : (
            <FolderButton onPick={pick} disabled={!canWrite} />
          )}
        </Group>
        <Textarea
          label="Notes"
          description="What changed, for the operators (optional)"
          autosize
          minRows={2}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
          disabled={!canWrite}
        />
        {picked.length > 0 && (
          <Text size="sm" aria-label="Picked files">
            {picked.length} file{picked.length === 1 ? '' : 's'}, {formatBytes(bytes)}:{' '}
            {picked
              .slice(0, 6)
              .map((one) => one.name)
              .join(', ')}
            {picked.length > 6 ? ', …' : ''}
          </Text>
        )}
        {missing && picked.length > 0 && (
          <Alert color="yellow" title="Not yet">
            {missing}
          </Alert>
        )}
        {upload.error && (
          <ErrorAlert error={upload.error} title="The release was refused; nothing was kept" />
        )}
        <Group>
          <WriteButton onClick={() => upload.mutate()} disabled={missing !== null} loading={upload.isPending}>
            Upload
          </WriteButton>
        </Group>
      </Stack>
    </Paper>
  );
}

/** A button picking a whole folder (each file with its path in it), as the web player's bundle is. */
function FolderButton({ onPick, disabled }: { onPick: (files: File[]) => void; disabled: boolean }) {
  return (
    <Button component="label" variant="default" disabled={disabled}>
      Pick the folder…
      <input
        type="file"
        hidden
        multiple
        disabled={disabled}
        aria-label="Folder of the web player"
        // Every browser the console supports picks folders so; React knows no such attribute.
        {...{ webkitdirectory: '' }}
        onChange={(event) => onPick([...(event.currentTarget.files ?? [])])}
      />
    </Button>
  );
}
