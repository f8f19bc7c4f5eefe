import { Alert, Button, Group, Text } from '@mantine/core';
import { ErrorAlert } from './error-panel';
import { LeaveGuard } from './leave-guard';

/** An alert's title in the text's color: Mantine's yellow title on its light background misses WCAG AA. */
const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/**
 * What a page with a draft says about it (docs/console.md, "One save model"): that there are
 * unsaved changes (and a way to drop them), why the last save failed, and, on leaving, the
 * question the board and playlist pages ask.
 */
export function DraftStatus({
  what,
  dirty,
  until,
  onDrop,
  error,
}: {
  /** The page's subject, as the leaving question names it: "This screen". */
  what: string;
  dirty: boolean;
  /** What stays as saved until the Save: "Screens show the saved settings until you save." */
  until: string;
  onDrop: () => void;
  error: unknown;
}) {
  return (
    <>
      <LeaveGuard what={what} dirty={dirty} />
      {error !== null && error !== undefined && <ErrorAlert error={error} title="Not saved" />}
      {dirty && (
        <Alert color="yellow" title="You have unsaved changes" role="status" styles={READABLE_TITLE}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">{until}</Text>
            <Button size="xs" variant="subtle" onClick={onDrop}>
              Discard the changes
            </Button>
          </Group>
        </Alert>
      )}
    </>
  );
}
