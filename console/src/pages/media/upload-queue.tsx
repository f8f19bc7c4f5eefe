import { faCloudArrowUp, faXmark } from '@fortawesome/free-solid-svg-icons';
import { ActionIcon, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { useWriteRefusal } from '../../session/session';
import { FaIcon } from '../../ui/fa-icon';
import { WriteButton } from '../../ui/write-button';
import { formatBytes } from './format';
import { uploadMedia } from './upload';

type Status = 'queued' | 'uploading' | 'done' | 'failed';

interface Upload {
  key: number;
  file: File;
  status: Status;
  /** Of the bytes sent, 0 to 1. */
  progress: number;
  error?: string;
}

const COLOR: Record<Status, string> = { queued: 'gray', uploading: 'blue', done: 'green', failed: 'red' };

function statusText(upload: Upload): string {
  switch (upload.status) {
    case 'queued':
      return 'waiting';
    case 'uploading':
      return `${Math.round(upload.progress * 100)}%`;
    case 'done':
      return 'uploaded';
    case 'failed':
      return upload.error ?? 'refused';
  }
}

function UploadRow({ upload, onCancel }: { upload: Upload; onCancel: () => void }) {
  const active = upload.status === 'queued' || upload.status === 'uploading';
  return (
    <Paper withBorder p="xs" data-testid="upload">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" truncate fw={500}>
          {upload.file.name}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {formatBytes(upload.file.size)}
          </Text>
          {active && (
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={`Cancel ${upload.file.name}`}
              onClick={onCancel}
            >
              <FaIcon icon={faXmark} />
            </ActionIcon>
          )}
        </Group>
      </Group>
      <Progress
        mt={6}
        value={upload.status === 'done' || upload.status === 'failed' ? 100 : upload.progress * 100}
        color={COLOR[upload.status]}
        aria-label={`Upload of ${upload.file.name}`}
      />
      <Text
        size="xs"
        mt={4}
        c={upload.status === 'failed' ? 'var(--mantine-color-error)' : 'dimmed'}
        role={upload.status === 'failed' ? 'alert' : undefined}
      >
        {statusText(upload)}
      </Text>
    </Paper>
  );
}

/**
 * Where files are dropped or picked, and the queue of their uploads, one at a time, each with its
 * progress. The size is checked here first (the service would read the whole file only to
 * refuse it); the type is told by the service from the content, and its refusal is shown.
 */
export function UploadQueue({ maxBytes }: { maxBytes: number | null }) {
  const refusal = useWriteRefusal();
  const canWrite = refusal === null;
  const queries = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const nextKey = useRef(0);
  const running = useRef<{ key: number; abort: AbortController } | null>(null);
  const openPicker = useRef<() => void>(null);

  const update = (key: number, change: Partial<Upload>) =>
    setUploads((all) => all.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));

  /** The files waiting their turn, in order; one uploads at a time. */
  const waiting = useRef<{ key: number; file: File }[]>([]);

  const pump = () => {
    if (running.current) return;
    const job = waiting.current.shift();
    if (!job) return;
    const abort = new AbortController();
    running.current = { key: job.key, abort };
    update(job.key, { status: 'uploading' });
    uploadMedia(job.file, (progress) => update(job.key, { progress }), abort.signal)
      .then(
        () => {
          update(job.key, { status: 'done', progress: 1 });
          void queries.invalidateQueries({ queryKey: ['media'] });
        },
        (error: unknown) => {
          const message = error instanceof ApiError ? error.message : 'cancelled';
          update(job.key, { status: 'failed', error: message });
        },
      )
      .finally(() => {
        running.current = null;
        pump();
      });
  };

  const add = (files: readonly File[], refused: readonly FileRejection[] = []) => {
    const made = (file: File, error?: string): Upload => ({
      key: nextKey.current++,
      file,
      status: error ? 'failed' : 'queued',
      progress: 0,
      error,
    });
    const queued = files.map((file) => made(file));
    const tooBig = (file: File) =>
      maxBytes === null
        ? 'too large'
        : `${JSON.stringify(file.name)} is larger than the media library takes (${formatBytes(maxBytes)}); nothing was uploaded`;
    setUploads((all) => [
      ...all,
      ...queued,
      ...refused.map(({ file, errors }) =>
        made(file, errors.map((e) => (e.code === 'file-too-large' ? tooBig(file) : e.message)).join('; ')),
      ),
    ]);
    waiting.current.push(...queued.map(({ key, file }) => ({ key, file })));
    pump();
  };

  const cancel = (upload: Upload) => {
    if (running.current?.key === upload.key) return running.current.abort.abort();
    waiting.current = waiting.current.filter((job) => job.key !== upload.key);
    update(upload.key, { status: 'failed', error: 'cancelled' });
  };
  const finished = uploads.some((upload) => upload.status === 'done' || upload.status === 'failed');
  const limit = maxBytes === null ? '' : `Up to ${formatBytes(maxBytes)} a file. `;

  return (
    <Stack gap="sm">
      <Dropzone
        onDrop={(files) => add(files)}
        onReject={(refused) => add([], refused)}
        maxSize={maxBytes ?? undefined}
        openRef={openPicker}
        disabled={!canWrite}
        activateOnClick={false}
        aria-label="Drop files to upload"
        inputProps={{ 'aria-label': 'Files to upload' }}
      >
        <Group justify="center" gap="md" mih={90} wrap="nowrap">
          <Text c="dimmed" fz={32}>
            <FaIcon icon={faCloudArrowUp} />
          </Text>
          <Stack gap={4}>
            <Text fw={500}>{refusal ?? 'Drop images, videos and sounds here'}</Text>
            <Text size="sm" c="dimmed">
              {limit}Those the screens play (PNG, JPEG, WebP, GIF, MP4, WebM, MP3, WAV, …), told by their
              content, not their name.
            </Text>
          </Stack>
        </Group>
      </Dropzone>
      <Group gap="sm">
        <WriteButton onClick={() => openPicker.current?.()}>Choose files…</WriteButton>
        {finished && (
          <Button
            variant="subtle"
            onClick={() =>
              setUploads((all) => all.filter((u) => u.status === 'queued' || u.status === 'uploading'))
            }
          >
            Clear finished uploads
          </Button>
        )}
      </Group>
      {uploads.length > 0 && (
        <Stack gap="xs" aria-label="Uploads" role="list">
          {uploads.map((upload) => (
            <div role="listitem" key={upload.key}>
              <UploadRow upload={upload} onCancel={() => cancel(upload)} />
            </div>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
