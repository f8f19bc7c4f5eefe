import { Accordion, Alert, Anchor, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Flow } from '../../../../../src/shared/flow';
import type { MetricsData } from '../../../../../src/shared/metrics';
import type { Variant } from '../../../../../src/shared/variants';
import { Loading } from '../../../ui/loading';
import { bindingsQuery } from '../../data-sources/queries';
import { VariantShape } from '../../flows/variant-shape';
import type { BindingEdit } from './binding-edits';
import { DataBinding } from './data-binding';
import type { DataEdit } from './data-edits';
import type { SourceEdit } from './source-edits';
import { ScriptSource } from './script-source';

// Each view loads with the first widget selected, not with the editor: the form with its
// controls, the JSON view with CodeMirror.
const DataForm = lazy(() => import('../forms/data-form'));
const DataEditor = lazy(() => import('../data-editor/data-editor'));

type View = 'form' | 'json';

/**
 * The data of the selected widget's flow, part of the board's draft: a form generated from the
 * variant (the default), or the whole data as JSON (Advanced), both over the same text and so
 * always in sync. Saved with the board by its one Save; a new widget's flow is created then.
 */
export function WidgetData({
  tag,
  flow,
  variant,
  loaded,
  edit,
  onEdit,
  source,
  onSource,
  binding,
  onBinding,
  onTried,
  disabled,
}: {
  tag: string;
  /** The flow, once it exists; undefined for the flow the next save creates. */
  flow: Flow | undefined;
  variant: Variant;
  /** The flow's data as loaded, as text; null while it is read. */
  loaded: string | null;
  edit: DataEdit | undefined;
  onEdit: (text: string) => void;
  /** The script chosen to feed the flow, when edited ("Fed by", saved with the board). */
  source: SourceEdit | undefined;
  onSource: (edit: SourceEdit) => void;
  /** The data source chosen to feed the flow, when edited (saved with the board). */
  binding: BindingEdit | undefined;
  onBinding: (edit: BindingEdit) => void;
  /** The data a try of the binding made, for the preview (null: none). */
  onTried: (data: MetricsData | null) => void;
  disabled: boolean;
}) {
  const [view, setView] = useState<View>('form');
  const text = edit?.text ?? loaded;
  // Every flow's binding in one request, shared by the widgets (a new flow has none yet).
  const bindings = useQuery({ ...bindingsQuery(), enabled: flow !== undefined });
  const saved = (flow && bindings.data?.find((candidate) => candidate.flow_id === flow.id)) ?? null;
  const bound = binding ? binding.to !== null : saved !== null;
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h5">
          Its data
        </Title>
        {flow ? (
          <Anchor component={Link} to={`/flows/${encodeURIComponent(flow.id)}`} size="sm">
            Flow {flow.tag}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            New flow {tag}, created when the board is saved
          </Text>
        )}
      </Group>
      <SegmentedControl
        aria-label="How to edit the data"
        value={view}
        onChange={(next) => setView(next as View)}
        data={[
          { value: 'form', label: 'Form' },
          { value: 'json', label: 'Advanced (JSON)' },
        ]}
      />
      {bound && (
        <Alert
          color="blue"
          title="This data comes from a data source"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          It is replaced at each refresh of the source (see “Data from a source” below): what you type here
          only lasts until then.
        </Alert>
      )}
      {text === null ? (
        <Loading label="Loading the data" />
      ) : view === 'form' ? (
        <Suspense fallback={<Loading label="Loading the form" />}>
          <DataForm
            variant={variant}
            text={text}
            onChange={onEdit}
            onAdvanced={() => setView('json')}
            disabled={disabled}
          />
        </Suspense>
      ) : (
        <Suspense fallback={<Loading label="Loading the data editor" />}>
          <DataEditor variant={variant} value={text} readOnly={disabled} onChange={onEdit} />
        </Suspense>
      )}
      {edit && loaded !== null && edit.from !== loaded && (
        <Alert color="yellow" title="New data arrived while you edited">
          Saving replaces it with yours; Discard the changes shows it.
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        Saved with the board: every screen showing {tag} shows it once you save.
      </Text>
      <Accordion variant="contained">
        <Accordion.Item value="shape">
          <Accordion.Control>What the data of a {variant} may hold</Accordion.Control>
          <Accordion.Panel>
            <VariantShape variant={variant} />
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      {flow && bindings.data && (
        <DataBinding
          flow={flow}
          variant={variant}
          saved={saved}
          edit={binding}
          onChange={onBinding}
          onTried={onTried}
          disabled={disabled}
        />
      )}
      {flow && bindings.error && (
        <Text size="xs" c="dimmed">
          The data sources could not be read, so this widget cannot be fed by one now.
        </Text>
      )}
      {!flow && (
        <Text size="xs" c="dimmed">
          Once the board is saved, this widget can also be fed by a data source.
        </Text>
      )}
      {flow && (
        <ScriptSource
          flow={flow}
          value={source ? source.to : flow.source}
          onChange={(to) => onSource({ flowId: flow.id, tag: flow.tag, from: flow.source, to })}
          disabled={disabled}
        />
      )}
    </Stack>
  );
}
