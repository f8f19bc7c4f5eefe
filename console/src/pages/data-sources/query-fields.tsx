import { Group, NumberInput, Stack, Switch, Textarea } from '@mantine/core';
import type { DataSourceKind } from '../../../../src/shared/data-source';
import { KIND_WORDS } from './kinds';

export interface QueryRange {
  seconds: number;
  step_seconds: number;
}

/** A range's start when it is switched on: the last hour, a point a minute. */
export const DEFAULT_RANGE: QueryRange = { seconds: 3600, step_seconds: 60 };

/**
 * The query of a source's kind (PromQL, SQL, or a path picking part of an answer) with its
 * one-line hint, and for Prometheus an optional time range (a series of points instead of one
 * value). Used by the source's Test panel and by a widget's binding.
 */
export function QueryFields({
  kind,
  idPrefix,
  query,
  range,
  onQuery,
  onRange,
  error,
  disabled,
}: {
  kind: DataSourceKind;
  /** Keeps the labels' ids apart when two sets are on one page. */
  idPrefix: string;
  query: string;
  range: QueryRange | null;
  onQuery: (query: string) => void;
  onRange: (range: QueryRange | null) => void;
  error?: string;
  disabled: boolean;
}) {
  const words = KIND_WORDS[kind];
  const minutes = range ? range.seconds / 60 : 0;
  return (
    <Stack gap="xs">
      <Textarea
        id={`${idPrefix}-query`}
        label={words.queryLabel}
        description={words.queryHint}
        placeholder={words.queryPlaceholder}
        autosize
        minRows={2}
        maxRows={10}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        value={query}
        error={error}
        disabled={disabled}
        onChange={(event) => onQuery(event.currentTarget.value)}
      />
      {kind === 'prometheus' && (
        <>
          <Switch
            label="Over a time range (a series of points, for a chart)"
            checked={range !== null}
            disabled={disabled}
            onChange={(event) => onRange(event.currentTarget.checked ? DEFAULT_RANGE : null)}
          />
          {range && (
            <Group grow align="flex-start">
              <NumberInput
                label="The last (minutes)"
                min={1}
                max={7 * 24 * 60}
                allowDecimal={false}
                value={minutes}
                disabled={disabled}
                onChange={(value) => onRange({ ...range, seconds: Number(value) * 60 })}
              />
              <NumberInput
                label="A point every (seconds)"
                min={1}
                max={86_400}
                allowDecimal={false}
                value={range.step_seconds}
                disabled={disabled}
                onChange={(value) => onRange({ ...range, step_seconds: Number(value) })}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
