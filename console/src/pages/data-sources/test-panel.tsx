import { faPlay } from '@fortawesome/free-solid-svg-icons';
import { Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { DataSource } from '../../../../src/shared/data-source';
import { FaIcon } from '../../ui/fa-icon';
import { WriteButton } from '../../ui/write-button';
import { RESULT_SHAPE } from './kinds';
import { QueryFields, type QueryRange } from './query-fields';
import { TestOutcome, useSourceTest } from './test-result';

/**
 * Runs a query of the saved source now and shows what it answers, as a widget's expressions
 * will read it: the place to find the query before binding a widget to it. Nothing is written.
 */
export function TestPanel({ source }: { source: DataSource }) {
  const [query, setQuery] = useState('');
  const [range, setRange] = useState<QueryRange | null>(null);
  const test = useSourceTest(source.id);
  return (
    <section aria-labelledby="source-test-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="source-test-title">
          Test a query
        </Title>
        <Text size="sm" c="dimmed">
          Runs the query once with the saved settings (save your changes first) and shows the result.{' '}
          {RESULT_SHAPE[source.kind]}
        </Text>
        <QueryFields
          kind={source.kind}
          idPrefix="source-test"
          query={query}
          range={range}
          onQuery={setQuery}
          onRange={setRange}
          disabled={false}
        />
        <Group>
          <WriteButton
            leftSection={<FaIcon icon={faPlay} />}
            loading={test.isPending}
            onClick={() => test.mutate({ query, range })}
          >
            Test
          </WriteButton>
        </Group>
        <TestOutcome test={test} label="The result" show={(result) => result.result} />
      </Stack>
    </section>
  );
}
