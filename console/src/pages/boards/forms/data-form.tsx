import { faCircleCheck, faCircleExclamation } from '@fortawesome/free-solid-svg-icons';
import { Accordion, Alert, Box, Button, Group, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { Variant } from '../../../../../src/shared/variants';
import { FaIcon } from '../../../ui/fa-icon';
import { dataProblems, formatData, parseData } from '../data-editor/data-problems';
import { FieldControl } from './field-control';
import { variantForm, type FormField } from './form-model';
import { withKey } from './form-values';
import { problemMap } from './problems';

export interface DataFormProps {
  variant: Variant;
  /** The data as JSON text: the same draft the JSON view edits. */
  text: string;
  onChange: (text: string) => void;
  /** Opens the JSON view (for text the form cannot read). */
  onAdvanced: () => void;
  disabled: boolean;
}

/**
 * A flow's data as a form, generated from its variant's schema (form-model.ts), over the same JSON
 * text the advanced view edits: each change writes the text anew, so both always show one draft.
 * Problems are the API's own (dataProblems), each said under its field; what the form has no
 * field for is kept as it is.
 */
export default function DataForm({ variant, text, onChange, onAdvanced, disabled }: DataFormProps) {
  const data = parseData(text);
  const problems = useMemo(() => dataProblems(variant, text), [variant, text]);
  const form = variantForm(variant);
  if (!data) {
    return (
      <Alert color="yellow" title="The JSON needs fixing first">
        <Text size="sm" mb="xs">
          The data is not a JSON object as it is, so the form cannot show it. Nothing is lost: fix it in the
          JSON view.
        </Text>
        <Button size="xs" variant="light" onClick={onAdvanced}>
          Open the JSON view
        </Button>
      </Alert>
    );
  }
  const problemsAt = problemMap(problems);
  const known = new Set([...form.main, ...form.more].map((field) => field.key));
  const others = Object.keys(data).filter((key) => !known.has(key));
  const control = (field: FormField) => (
    <FieldControl
      key={field.key}
      field={field}
      value={data[field.key]}
      onChange={(value) => onChange(formatData(withKey(data, field.key, value)))}
      path={field.key}
      problems={problemsAt}
      disabled={disabled}
    />
  );
  return (
    <Stack gap="sm" data-testid="data-form">
      <div role="status" aria-live="polite">
        {problems.length === 0 ? (
          <Group gap="xs" wrap="nowrap">
            <Box component="span" c="teal" display="flex">
              <FaIcon icon={faCircleCheck} />
            </Box>
            <Text size="sm">The data fits the {variant} widget.</Text>
          </Group>
        ) : (
          <Group gap="xs" wrap="nowrap" c="var(--mantine-color-error)">
            <FaIcon icon={faCircleExclamation} />
            <Text size="sm">
              {problems.length === 1 ? 'One field needs' : `${problems.length} fields need`} fixing before the
              board can be saved: {problems.map((problem) => problem.path || 'the data').join(', ')}.
            </Text>
          </Group>
        )}
      </div>
      {form.main.map(control)}
      <Accordion variant="contained">
        <Accordion.Item value="more">
          <Accordion.Control>
            More: {form.more.map((field) => field.label.toLowerCase()).join(', ')}
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="sm">{form.more.map(control)}</Stack>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      {others.length > 0 && (
        <Text size="xs" c="dimmed">
          Also kept as they are (see the JSON view): {others.join(', ')}.
        </Text>
      )}
    </Stack>
  );
}
