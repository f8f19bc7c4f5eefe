import { Alert, Button, Checkbox, Group, List, Paper, Progress, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { counted, headerState, runBulk, summary, type BulkOutcome } from './bulk';
import { WriteButton } from './write-button';

/** The header's "select every row shown" checkbox. */
export function SelectAll({
  selection,
  shown,
  onChange,
  label,
}: {
  selection: ReadonlySet<string>;
  shown: readonly string[];
  onChange: () => void;
  label: string;
}) {
  const state = headerState(selection, shown);
  return (
    <Checkbox
      aria-label={label}
      checked={state.checked}
      indeterminate={state.indeterminate}
      onChange={onChange}
      disabled={shown.length === 0}
    />
  );
}

/**
 * Bulk work with its progress and the summary it came to, for one page: `run` goes through the
 * items one by one (ui/bulk.ts), then the page shows what was done and what failed.
 */
export function useBulkRun() {
  const [progress, setProgress] = useState<{ finished: number; total: number } | null>(null);
  const [result, setResult] = useState<{ text: string; outcome: BulkOutcome } | null>(null);
  const run = async <T,>(
    items: readonly T[],
    nameOf: (item: T) => string,
    action: (item: T) => Promise<unknown>,
    words: { verb: string; noun: string },
  ): Promise<BulkOutcome> => {
    setResult(null);
    setProgress({ finished: 0, total: items.length });
    const outcome = await runBulk(items, nameOf, action, (finished, total) =>
      setProgress({ finished, total }),
    );
    setProgress(null);
    setResult({ text: summary(outcome, words.verb, words.noun), outcome });
    return outcome;
  };
  return { progress, result, running: progress !== null, run, dismiss: () => setResult(null) };
}

/**
 * What is selected and what can be done with it, above a list: shown while anything is selected
 * or a bulk action runs or has just ended.
 */
export function BulkBar({
  count,
  noun,
  onClear,
  bulk,
  onDelete,
  deleting = false,
  children,
}: {
  count: number;
  noun: string;
  onClear: () => void;
  bulk: ReturnType<typeof useBulkRun>;
  /** Asks, with what uses them, then deletes the selection: every list has it, last. */
  onDelete: () => void;
  /** While what uses them is read before asking. */
  deleting?: boolean;
  /** The page's other actions' buttons. */
  children?: ReactNode;
}) {
  const { progress, result } = bulk;
  return (
    <>
      {result && (
        <Alert
          color={result.outcome.failed.length > 0 ? 'orange' : 'green'}
          title={result.text}
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={bulk.dismiss}
          mb="sm"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          {result.outcome.failed.length > 0 && (
            <List size="sm">
              {result.outcome.failed.map((failure) => (
                <List.Item key={failure.name}>{`${failure.name}: ${failure.reason}`}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {(count > 0 || progress) && (
        <Paper withBorder p="xs" mb="sm" role="region" aria-label={`Selected ${noun}s`}>
          <Group gap="sm" justify="space-between">
            <Text size="sm" fw={500}>
              {counted(count, noun)} selected
            </Text>
            <Group gap="xs">
              {children}
              <WriteButton
                size="xs"
                color="red"
                variant="light"
                loading={deleting}
                onClick={onDelete}
                disabled={bulk.running}
              >
                Delete
              </WriteButton>
              <Button size="xs" variant="default" onClick={onClear} disabled={progress !== null}>
                Clear the selection
              </Button>
            </Group>
          </Group>
          {progress && (
            <Progress
              mt="xs"
              value={(progress.finished / Math.max(1, progress.total)) * 100}
              aria-label={`${progress.finished} of ${progress.total} done`}
            />
          )}
        </Paper>
      )}
    </>
  );
}
