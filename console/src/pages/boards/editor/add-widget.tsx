import { Button, Checkbox, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { tagSchema } from '../../../../../src/shared/common';
import type { Flow } from '../../../../../src/shared/flow';
import type { Variant } from '../../../../../src/shared/variants';
import { ErrorAlert } from '../../../ui/error-panel';
import { flowsQuery } from '../../flows/flow-queries';
import { Loading } from '../../../ui/loading';

const VariantGallery = lazy(() => import('../gallery/variant-gallery'));

/**
 * A tag for a new flow from the board's name and the variant, not yet taken by a flow nor by a
 * new widget of the draft: `lobby-value-2`.
 */
export function suggestTag(
  boardName: string,
  variant: Variant,
  flows: readonly Flow[],
  pending: readonly string[] = [],
): string {
  const stem = `${boardName}-${variant}`
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 90);
  const taken = new Set([...flows.map((flow) => flow.tag), ...pending]);
  for (let n = 1; ; n++) {
    const tag = n === 1 ? stem : `${stem}-${n}`;
    if (!taken.has(tag)) return tag;
  }
}

/**
 * The flow a new widget shows: one that exists, or a new one (its tag, and whether it starts with
 * the variant's sample data), which is created when the board is saved, never before.
 */
export type FlowChoice = { flow: Flow } | { tag: string; sample: boolean };

/** The second step: the data the new widget shows, a new flow (the default) or one that exists. */
function FlowStep({
  boardName,
  variant,
  pending,
  onBack,
  onDone,
}: {
  boardName: string;
  variant: Variant;
  pending: readonly string[];
  onBack: () => void;
  onDone: (choice: FlowChoice) => void;
}) {
  const flows = useQuery(flowsQuery);
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [tag, setTag] = useState<string | null>(null);
  const [sample, setSample] = useState(true);
  const [existing, setExisting] = useState<string | null>(null);
  if (!flows.data)
    return flows.error ? <ErrorAlert error={flows.error} /> : <Loading label="Loading the flows" />;
  const newTag = tag ?? suggestTag(boardName, variant, flows.data, pending);
  const tagProblem =
    tagSchema.safeParse(newTag).error?.issues[0]?.message ??
    (flows.data.some((flow) => flow.tag === newTag) || pending.includes(newTag)
      ? 'is taken: pick it as a flow that exists, or another tag'
      : undefined);
  // Flows of the same variant first: their data fits the widget as it is.
  const options = [...flows.data]
    .sort(
      (a, b) => Number(b.variant === variant) - Number(a.variant === variant) || a.tag.localeCompare(b.tag),
    )
    .map((flow) => ({ value: flow.id, label: `${flow.tag} (${flow.variant})` }));
  const picked = flows.data.find((flow) => flow.id === existing);
  const add = () => (mode === 'new' ? onDone({ tag: newTag, sample }) : picked && onDone({ flow: picked }));
  return (
    <Stack>
      <Text size="sm">
        A <b>{variant}</b> widget shows the data of a flow: scripts or other systems push data to it.
      </Text>
      <Radio.Group value={mode} onChange={(value) => setMode(value as 'new' | 'existing')} label="Its data">
        <Stack gap="xs" mt="xs">
          <Radio value="new" label="A new flow" />
          <Radio value="existing" label="A flow that exists" disabled={options.length === 0} />
        </Stack>
      </Radio.Group>
      {mode === 'new' ? (
        <>
          <TextInput
            label="The new flow's tag"
            description="What scripts and the API call it; created when the board is saved"
            value={newTag}
            onChange={(event) => setTag(event.currentTarget.value)}
            error={tagProblem}
          />
          <Checkbox
            label="Start with sample data"
            checked={sample}
            onChange={(event) => setSample(event.currentTarget.checked)}
          />
        </>
      ) : (
        <Select
          label="Flow"
          placeholder="Pick a flow"
          data={options}
          searchable
          value={existing}
          onChange={setExisting}
          nothingFoundMessage="No flow has that tag"
        />
      )}
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back to the widgets
        </Button>
        <Button onClick={add} disabled={mode === 'new' ? tagProblem !== undefined : !picked}>
          Add the widget
        </Button>
      </Group>
    </Stack>
  );
}

/** Adding a widget: its variant picked from the gallery, then the flow it shows. */
export function AddWidget({
  boardName,
  pending,
  onAdd,
}: {
  boardName: string;
  /** The tags of the new flows the draft holds already. */
  pending: readonly string[];
  onAdd: (variant: Variant, choice: FlowChoice) => void;
}) {
  const [variant, setVariant] = useState<Variant | null>(null);
  if (variant) {
    return (
      <FlowStep
        boardName={boardName}
        variant={variant}
        pending={pending}
        onBack={() => setVariant(null)}
        onDone={(choice) => onAdd(variant, choice)}
      />
    );
  }
  return (
    <Suspense fallback={<Loading label="Loading the widgets" />}>
      <VariantGallery onPick={setVariant} />
    </Suspense>
  );
}
