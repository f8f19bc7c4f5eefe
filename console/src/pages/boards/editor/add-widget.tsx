import { Button, Checkbox, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { tagSchema } from '../../../../../src/shared/common';
import { flowSchema, type Flow } from '../../../../../src/shared/flow';
import { VARIANT_EXAMPLES } from '../../../../../src/shared/variant-examples';
import type { Variant } from '../../../../../src/shared/variants';
import { api, send } from '../../../api/client';
import { ErrorAlert } from '../../../ui/error-panel';
import { flowsQuery } from '../../flows/flow-queries';
import { Loading } from '../../../ui/loading';

const VariantGallery = lazy(() => import('../gallery/variant-gallery'));

/** A tag for a new flow from the board's name and the variant, not yet taken: `lobby-value-2`. */
export function suggestTag(boardName: string, variant: Variant, flows: readonly Flow[]): string {
  const stem = `${boardName}-${variant}`
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 90);
  const taken = new Set(flows.map((flow) => flow.tag));
  for (let n = 1; ; n++) {
    const tag = n === 1 ? stem : `${stem}-${n}`;
    if (!taken.has(tag)) return tag;
  }
}

/** A new flow of the variant, holding the variant's sample data when asked (so it draws at once). */
async function createFlow(tag: string, variant: Variant, sample: boolean): Promise<Flow> {
  const flow = await api(flowSchema, '/flows', { method: 'POST', body: { tag, variant } });
  if (sample) {
    await send(`/flows/${encodeURIComponent(tag)}/metrics`, {
      method: 'PUT',
      body: VARIANT_EXAMPLES[variant].example,
    });
  }
  return flow;
}

/** The second step: the data the new widget shows, a new flow (the default) or one that exists. */
function FlowStep({
  boardName,
  variant,
  onBack,
  onDone,
}: {
  boardName: string;
  variant: Variant;
  onBack: () => void;
  onDone: (flow: Flow) => void;
}) {
  const queries = useQueryClient();
  const flows = useQuery(flowsQuery);
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [tag, setTag] = useState<string | null>(null);
  const [sample, setSample] = useState(true);
  const [existing, setExisting] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => createFlow(newTag, variant, sample),
    onSuccess: async (flow) => {
      await queries.invalidateQueries({ queryKey: ['flows'] });
      onDone(flow);
    },
  });
  if (!flows.data)
    return flows.error ? <ErrorAlert error={flows.error} /> : <Loading label="Loading the flows" />;
  const newTag = tag ?? suggestTag(boardName, variant, flows.data);
  const tagProblem = tagSchema.safeParse(newTag).error?.issues[0]?.message;
  // Flows of the same variant first: their data fits the widget as it is.
  const options = [...flows.data]
    .sort(
      (a, b) => Number(b.variant === variant) - Number(a.variant === variant) || a.tag.localeCompare(b.tag),
    )
    .map((flow) => ({ value: flow.id, label: `${flow.tag} (${flow.variant})` }));
  const picked = flows.data.find((flow) => flow.id === existing);
  const add = () => (mode === 'new' ? create.mutate() : picked && onDone(picked));
  return (
    <Stack>
      <Text size="sm">
        A <b>{variant}</b> widget shows the data of a flow: scripts or other systems push data to it.
      </Text>
      {create.error && <ErrorAlert error={create.error} title="The flow was not created" />}
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
            description="What scripts and the API call it"
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
        <Button
          onClick={add}
          loading={create.isPending}
          disabled={mode === 'new' ? tagProblem !== undefined : !picked}
        >
          Add the widget
        </Button>
      </Group>
    </Stack>
  );
}

/** Adding a widget: its variant picked from the gallery, then the flow it shows. */
export function AddWidget({
  boardName,
  onAdd,
}: {
  boardName: string;
  onAdd: (variant: Variant, flow: Flow) => void;
}) {
  const [variant, setVariant] = useState<Variant | null>(null);
  if (variant) {
    return (
      <FlowStep
        boardName={boardName}
        variant={variant}
        onBack={() => setVariant(null)}
        onDone={(flow) => onAdd(variant, flow)}
      />
    );
  }
  return (
    <Suspense fallback={<Loading label="Loading the widgets" />}>
      <VariantGallery onPick={setVariant} />
    </Suspense>
  );
}
