import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { playlistItemSchema } from '../../../../src/shared/playlist';
import { EditModal } from '../../ui/edit-modal';

export interface WebPage {
  url: string;
  duration: number;
  reload_seconds: number | null;
}

const DEFAULT_SECONDS = 30;
const seconds = (value: string | number): number | '' => (typeof value === 'number' ? value : '');

/**
 * The fields' refusals, by the shared schema as the operator types (the URL only once there is
 * something to check), so nothing the service would refuse is added.
 */
function check(url: string, duration: number | '', reload: number | '', touched: boolean) {
  const parsed = playlistItemSchema.safeParse({
    type: 'web',
    url: url.trim(),
    duration: duration === '' ? Number.NaN : duration,
    reload_seconds: reload === '' ? null : reload,
  });
  const errors: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = String(issue.path[0] ?? 'url');
    if (field === 'url' && !touched) continue;
    errors[field] ??= issue.message;
  }
  return { errors, page: parsed.success && parsed.data.type === 'web' ? parsed.data : null };
}

/** A web page item: its URL, how long it shows, and how often it reloads while it does. */
export function AddWeb({
  opened,
  onClose,
  onAdd,
}: {
  opened: boolean;
  onClose: () => void;
  onAdd: (page: WebPage) => void;
}) {
  const [url, setUrl] = useState('');
  const [duration, setDuration] = useState<number | ''>(DEFAULT_SECONDS);
  const [reload, setReload] = useState<number | ''>('');
  const [submitted, setSubmitted] = useState(false);
  const { errors, page } = check(url, duration, reload, submitted || url.trim() !== '');
  const add = () => {
    setSubmitted(true);
    if (!page) return;
    onAdd({ url: page.url, duration: page.duration, reload_seconds: page.reload_seconds });
    setUrl('');
    setDuration(DEFAULT_SECONDS);
    setReload('');
    setSubmitted(false);
  };
  return (
    <EditModal opened={opened} onClose={onClose} title="Add a web page">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Stack>
          <TextInput
            label="Page URL"
            description="http or https. Sites that refuse being framed show only in the Electron app"
            placeholder="https://status.example.com/"
            value={url}
            error={errors.url}
            data-autofocus
            onChange={(event) => setUrl(event.currentTarget.value)}
          />
          <Group grow align="flex-start">
            <NumberInput
              label="Seconds on screen"
              min={1}
              max={86400}
              allowDecimal={false}
              allowNegative={false}
              value={duration}
              error={errors.duration}
              onChange={(value) => setDuration(seconds(value))}
            />
            <NumberInput
              label="Reload every (seconds)"
              description="Empty: never"
              min={10}
              max={86400}
              allowDecimal={false}
              allowNegative={false}
              value={reload}
              error={errors.reload_seconds}
              onChange={(value) => setReload(seconds(value))}
            />
          </Group>
          <Button type="submit">Add the web page</Button>
        </Stack>
      </form>
    </EditModal>
  );
}
