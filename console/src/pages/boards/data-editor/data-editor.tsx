import { faCircleCheck, faCircleExclamation } from '@fortawesome/free-solid-svg-icons';
import { Anchor, Box, Group, Input, List, Text } from '@mantine/core';
import { lazy, Suspense, useMemo, useRef } from 'react';
import type { Variant } from '../../../../../src/shared/variants';
import { FaIcon } from '../../../ui/fa-icon';
import { dataProblems, type DataProblem } from './data-problems';
import type { JsonEditorHandle } from './json-editor';

export { formatData } from './data-problems';

const JsonEditor = lazy(() => import('./json-editor'));

/** Problems listed under the editor; past these, a count (the editor marks them all). */
const LISTED_MAX = 20;

interface DataEditorProps {
  variant: Variant;
  /** The data as JSON text (see formatData). */
  value: string;
  /** Each edit, with what is wrong with it: saving makes sense only when `problems` is empty. */
  onChange: (text: string, problems: readonly DataProblem[]) => void;
  readOnly?: boolean;
  label?: string;
}

/** `check` with the last answer kept: the list, the editor's marks and onChange ask for the same text. */
function remembered(check: (text: string) => DataProblem[]): (text: string) => DataProblem[] {
  let last: { text: string; problems: DataProblem[] } | undefined;
  return (text) => {
    if (last?.text !== text) last = { text, problems: check(text) };
    return last.problems;
  };
}

const describeProblem = ({ line, path, message }: DataProblem): string =>
  `line ${line}: ${path ? `${path}: ` : ''}${message}`;

/**
 * A flow's data edited as JSON, checked as you type exactly as `PUT /flows/:tag/metrics` checks it
 * (dataProblems): the problems are marked in the editor and listed under it in words, each a
 * link to its place. Controlled: `value` is the text, each edit comes back through `onChange`.
 */
export default function DataEditor({
  variant,
  value,
  onChange,
  readOnly = false,
  label = 'Data (JSON)',
}: DataEditorProps) {
  const editor = useRef<JsonEditorHandle>(null);
  const check = useMemo(() => remembered((text) => dataProblems(variant, text)), [variant]);
  const problems = check(value);
  const listed = problems.slice(0, LISTED_MAX);

  return (
    <Input.Wrapper
      label={label}
      description={`The flow's metrics, checked against the ${variant} widget as you type`}
      labelElement="div"
    >
      <Suspense fallback={<Input component="div">Loading the editor…</Input>}>
        <JsonEditor
          ref={editor}
          label={label}
          value={value}
          onChange={(text) => onChange(text, check(text))}
          check={check}
          readOnly={readOnly}
          invalid={problems.length > 0}
        />
      </Suspense>
      <div role="status" aria-live="polite" data-testid="data-problems">
        {problems.length === 0 ? (
          <Group gap="xs" mt="xs" wrap="nowrap">
            <Box component="span" c="teal" display="flex">
              <FaIcon icon={faCircleCheck} />
            </Box>
            <Text size="sm">The data fits the {variant} widget.</Text>
          </Group>
        ) : (
          <>
            <Group gap="xs" mt="xs" c="var(--mantine-color-error)" wrap="nowrap">
              <FaIcon icon={faCircleExclamation} />
              <Text size="sm">
                {problems.length === 1 ? 'One problem' : `${problems.length} problems`} in the data:
              </Text>
            </Group>
            <List size="sm" spacing={2} mt={4}>
              {listed.map((problem, index) => (
                <List.Item key={`${index}:${problem.from}:${problem.path}`}>
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    c="var(--mantine-color-error)"
                    ta="left"
                    onClick={() => editor.current?.select(problem.from, problem.to)}
                  >
                    {describeProblem(problem)}
                  </Anchor>
                </List.Item>
              ))}
            </List>
            {problems.length > listed.length && (
              <Text size="sm" c="dimmed" mt={4}>
                and {problems.length - listed.length} more, marked in the editor
              </Text>
            )}
          </>
        )}
      </div>
    </Input.Wrapper>
  );
}
