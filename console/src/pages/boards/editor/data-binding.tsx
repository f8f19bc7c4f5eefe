import { faFlask, faLinkSlash } from '@fortawesome/free-solid-svg-icons';
import { Accordion, Anchor, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { DataBinding } from '../../../../../src/shared/data-source';
import type { Flow } from '../../../../../src/shared/flow';
import { parseMetrics, type MetricsData } from '../../../../../src/shared/metrics';
import type { Variant } from '../../../../../src/shared/variants';
import { ErrorAlert } from '../../../ui/error-panel';
import { FaIcon } from '../../../ui/fa-icon';
import { WriteButton } from '../../../ui/write-button';
import { RESULT_SHAPE } from '../../data-sources/kinds';
import { sourcesQuery } from '../../data-sources/queries';
import { QueryFields } from '../../data-sources/query-fields';
import { TestOutcome, useSourceTest } from '../../data-sources/test-result';
import { bindingProblem, mappingOf, type BindingEdit, type BindingSpec } from './binding-edits';
import { exampleOf, mappingRows, type MappingRow } from './mapping-rows';

const NONE = '';

/**
 * "Data from a source": the flow fed by a data source, field by field. The operator picks the
 * source, writes its query and, for each field of the widget's data, an expression that reads it
 * from the query's result; "Try it" runs them once (nothing is written) and, when the data fits,
 * the preview draws it. Part of the board's draft (binding-edits.ts): written by its Save.
 */
export function DataBinding({
  flow,
  variant,
  saved,
  edit,
  onChange,
  onTried,
  disabled,
}: {
  flow: Flow;
  variant: Variant;
  /** The flow's binding as the service has it (null: none). */
  saved: DataBinding | null;
  edit: BindingEdit | undefined;
  onChange: (edit: BindingEdit) => void;
  /** The data a try made, when it fits the widget (null: drop it): drawn by the preview. */
  onTried: (data: MetricsData | null) => void;
  disabled: boolean;
}) {
  const sources = useQuery(sourcesQuery);
  const spec: BindingSpec | null = edit
    ? edit.to
    : saved && { source_id: saved.source_id, query: saved.query, range: saved.range, mapping: saved.mapping };
  const source = sources.data?.find((candidate) => candidate.id === spec?.source_id);
  const test = useSourceTest(spec?.source_id ?? null);
  const set = (to: BindingSpec | null) => {
    onChange({ flowId: flow.id, tag: flow.tag, from: saved, to });
    if (to === null) onTried(null);
  };
  const problem = edit ? bindingProblem(edit) : null;
  const rows = spec ? mappingRows(variant, spec.mapping) : [];
  const field = (row: MappingRow) => (
    <TextInput
      key={row.key}
      label={row.unknown ? `${row.key} (not a field of this widget: clear it)` : row.label}
      description={`${row.key}${row.help ? `: ${row.help}` : ''}`}
      placeholder={exampleOf(row.kind)}
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      error={
        row.unknown && row.expression !== ''
          ? 'The service refuses fields the widget does not have'
          : undefined
      }
      value={row.expression}
      disabled={disabled}
      onChange={(event) =>
        spec && set({ ...spec, mapping: { ...spec.mapping, [row.key]: event.currentTarget.value } })
      }
    />
  );
  const tryIt = () => {
    if (!spec) return;
    test.mutate(
      { query: spec.query, range: spec.range, mapping: mappingOf(spec.mapping), flow: flow.tag },
      {
        onSuccess: (result) => {
          const fits =
            result.ok && typeof result.metrics === 'object' && result.metrics !== null
              ? parseMetrics(variant, result.metrics).success
              : false;
          onTried(fits ? (result.metrics as MetricsData) : null);
        },
      },
    );
  };
  return (
    <section aria-labelledby="binding-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="binding-title">
          Data from a source
        </Title>
        <Select
          label="Data source"
          description={
            edit
              ? 'Changed: saved with the board'
              : 'Wallboard asks the source on its interval and writes the answer into this widget’s data.'
          }
          data={[
            { value: NONE, label: 'None (the data is typed here, pushed or made by a script)' },
            ...(sources.data ?? []).map((candidate) => ({ value: candidate.id, label: candidate.name })),
          ]}
          allowDeselect={false}
          disabled={disabled}
          value={spec?.source_id ?? NONE}
          onChange={(chosen) =>
            chosen !== null &&
            set(
              chosen === NONE
                ? null
                : { source_id: chosen, query: spec?.query ?? '', range: null, mapping: spec?.mapping ?? {} },
            )
          }
        />
        {sources.error && <ErrorAlert error={sources.error} title="The data sources could not be listed" />}
        {sources.data?.length === 0 && !spec && (
          <Text size="xs" c="dimmed">
            No data source yet:{' '}
            <Anchor component={Link} to="/data-sources" size="xs" underline="always">
              add one on the Data sources page
            </Anchor>
            .
          </Text>
        )}
        {spec && source && (
          <>
            <Anchor
              component={Link}
              to={`/data-sources/${encodeURIComponent(source.id)}`}
              size="xs"
              underline="always"
            >
              Open {source.name} (its settings, a test, its runs)
            </Anchor>
            <QueryFields
              kind={source.kind}
              idPrefix="binding"
              query={spec.query}
              range={spec.range}
              onQuery={(query) => set({ ...spec, query })}
              onRange={(range) => set({ ...spec, range })}
              disabled={disabled}
            />
            <Text size="sm" fw={500}>
              Each field of the widget
            </Text>
            <Text size="xs" c="dimmed">
              For each field, an expression that reads it from the query’s result (JMESPath: a path like
              [0].total, or a small formula like length(@)). A fixed text goes in single quotes, such as 'Open
              tickets'. A field left empty is not set: at each refresh the widget’s data is only what these
              make. {RESULT_SHAPE[source.kind]}
            </Text>
            {rows.filter((row) => !row.more).map(field)}
            <Accordion variant="contained">
              <Accordion.Item value="more">
                <Accordion.Control>More fields (stale after, opacity, icon, link)</Accordion.Control>
                <Accordion.Panel>
                  <Stack gap="sm">{rows.filter((row) => row.more).map(field)}</Stack>
                </Accordion.Panel>
              </Accordion.Item>
            </Accordion>
            {problem && (
              <Text size="sm" c="red" role="alert">
                {problem}
              </Text>
            )}
            <Group gap="xs">
              <WriteButton
                variant="default"
                size="xs"
                leftSection={<FaIcon icon={faFlask} />}
                loading={test.isPending}
                disabled={Object.keys(mappingOf(spec.mapping)).length === 0}
                onClick={tryIt}
              >
                Try it
              </WriteButton>
              <WriteButton
                variant="light"
                color="red"
                size="xs"
                leftSection={<FaIcon icon={faLinkSlash} />}
                onClick={() => set(null)}
              >
                Stop using the source
              </WriteButton>
            </Group>
            <TestOutcome
              test={test}
              label="The widget's data from the source"
              show={(result) => result.metrics}
            />
            {test.data?.ok && (
              <Text size="xs" c="dimmed">
                The preview draws this data when it fits the widget. Nothing is written until you save the
                board.
              </Text>
            )}
          </>
        )}
        {spec && sources.data && !source && (
          <Text size="sm" c="red">
            The source chosen no longer exists: choose another, or None.
          </Text>
        )}
      </Stack>
    </section>
  );
}
