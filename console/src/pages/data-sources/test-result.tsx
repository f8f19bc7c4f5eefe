import { Alert, Code, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { dataSourceTestSchema } from '../../../../src/shared/data-source';
import { dataSourceTestResultSchema, type DataSourceTestResult } from '../../../../src/shared/data-source';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { sourcePath } from './queries';

export type TestRequest = z.input<typeof dataSourceTestSchema>;

/** Asks the service to run one query of a saved source now (`POST /data-sources/:id/test`); writes nothing. */
export function useSourceTest(sourceId: string | null) {
  return useMutation({
    mutationFn: (body: TestRequest) =>
      api(dataSourceTestResultSchema, `${sourcePath(sourceId ?? '')}/test`, { method: 'POST', body }),
  });
}

/** A value as indented JSON, for reading; `undefined` (nothing answered) says so. */
export const pretty = (value: unknown): string =>
  value === undefined ? '(nothing)' : JSON.stringify(value, null, 2);

/**
 * What a test answered: how long it took, then the error in red or the value (the raw result,
 * or the widget's data the mapping made) as indented JSON in a region of its own that scrolls.
 */
export function TestOutcome({
  test,
  label,
  show,
}: {
  test: ReturnType<typeof useSourceTest>;
  /** Names the value's region: "The result", "The widget's data". */
  label: string;
  show: (result: DataSourceTestResult) => unknown;
}) {
  if (test.error) return <ErrorAlert error={test.error} title="The test could not run" />;
  if (!test.data) return null;
  const result = test.data;
  return (
    <Stack gap="xs" aria-live="polite">
      <Text size="sm" c={result.ok ? undefined : 'red'}>
        {result.ok ? `Answered in ${result.duration_ms} ms` : `Failed after ${result.duration_ms} ms`}
      </Text>
      {result.error && (
        <Alert
          color="red"
          title="What went wrong"
          role="alert"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {result.error}
          </Text>
        </Alert>
      )}
      {(result.ok || show(result) !== undefined) && (
        <Code
          block
          tabIndex={0}
          role="region"
          aria-label={label}
          style={{ maxHeight: '24rem', overflow: 'auto' }}
        >
          {pretty(show(result))}
        </Code>
      )}
    </Stack>
  );
}
