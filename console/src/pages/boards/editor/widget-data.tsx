import { Accordion, Alert, Anchor, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Flow } from '../../../../../src/shared/flow';
import type { Variant } from '../../../../../src/shared/variants';
import { send } from '../../../api/client';
import { ErrorAlert } from '../../../ui/error-panel';
import { WriteButton } from '../../../ui/write-button';
import { metricsQuery } from '../../flows/flow-queries';
import { VariantShape } from '../../flows/variant-shape';
import { dataProblems, formatData, parseData } from '../data-editor/data-problems';
import { ScriptSource } from './script-source';
import { Loading } from '../../../ui/loading';

const DataEditor = lazy(() => import('../data-editor/data-editor'));

/** The text with its `title` set (removed when empty), or null while the text is not an object. */
function withTitle(text: string, title: string): string | null {
  const data = parseData(text);
  if (!data) return null;
  const { title: _old, ...rest } = data;
  return formatData(title ? { title, ...rest } : rest);
}

/**
 * The data of the widget's flow: its title, the whole data as JSON checked against the variant
 * as it is typed (the API's own checks and messages), saved on its own (`PUT
 * /flows/:tag/metrics`, live on every screen at once) since it belongs to the flow, which other
 * boards may show too; and what feeds it. Someone else's new data refills an untouched editor.
 */
export function WidgetData({ flow, variant, disabled }: { flow: Flow; variant: Variant; disabled: boolean }) {
  const queries = useQueryClient();
  const current = useQuery(metricsQuery(flow.tag));
  const loaded = current.data ? formatData(current.data) : null;
  const [text, setText] = useState<string | null>(null);
  /** The data the edits started from: newer data arriving meanwhile is said, not overwritten unseen. */
  const [from, setFrom] = useState<string | null>(null);
  const edited = text !== null && text !== loaded;
  const shown = text ?? loaded;
  const save = useMutation({
    mutationFn: (body: unknown) =>
      send(`/flows/${encodeURIComponent(flow.tag)}/metrics`, { method: 'PUT', body }),
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ['flows'] });
      setText(null);
    },
  });
  const parsed = shown === null ? null : parseData(shown);
  const problems = useMemo(() => (shown === null ? [] : dataProblems(variant, shown)), [variant, shown]);
  const title = typeof parsed?.title === 'string' ? parsed.title : '';
  const change = (next: string) => {
    if (text === null) setFrom(loaded);
    setText(next);
    save.reset();
  };
  const drop = () => {
    setText(null);
    save.reset();
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h5">
          Its data
        </Title>
        <Anchor component={Link} to={`/flows/${encodeURIComponent(flow.id)}`} size="sm">
          Flow {flow.tag}
        </Anchor>
      </Group>
      {current.error && <ErrorAlert error={current.error} title="The data could not be read" />}
      {shown === null ? (
        <Loading label="Loading the data" />
      ) : (
        <>
          <TextInput
            label="Title"
            description="Drawn above the widget; empty for none"
            disabled={disabled || parsed === null}
            value={title}
            onChange={(event) => {
              const next = withTitle(shown, event.currentTarget.value);
              if (next !== null) change(next);
            }}
          />
          <Suspense fallback={<Loading label="Loading the data editor" />}>
            <DataEditor variant={variant} value={shown} readOnly={disabled} onChange={change} />
          </Suspense>
          {edited && from !== loaded && (
            <Alert color="yellow" title="New data arrived while you edited">
              Saving replaces it with yours; Discard shows it.
            </Alert>
          )}
          {save.error && <ErrorAlert error={save.error} title="The data was not saved" />}
          <Group justify="flex-end" gap="sm">
            <Text size="xs" c="dimmed">
              Saved on its own: every screen showing {flow.tag} shows it at once.
            </Text>
            <WriteButton variant="default" disabled={!edited} onClick={drop}>
              Discard
            </WriteButton>
            <WriteButton
              onClick={() => save.mutate(parsed)}
              loading={save.isPending}
              disabled={!edited || problems.length > 0 || parsed === null}
            >
              Save the data
            </WriteButton>
          </Group>
        </>
      )}
      <Accordion variant="contained">
        <Accordion.Item value="shape">
          <Accordion.Control>What the data of a {variant} may hold</Accordion.Control>
          <Accordion.Panel>
            <VariantShape variant={variant} />
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <ScriptSource flow={flow} disabled={disabled} />
    </Stack>
  );
}
