import { faArrowDown, faArrowUp, faTrash } from '@fortawesome/free-solid-svg-icons';
import { Badge, ColorInput, Group, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { Board } from '../../../../../src/shared/board';
import type { GridPlacement } from '../../../../../src/shared/widget';
import { FaIcon } from '../../../ui/fa-icon';
import { WriteButton } from '../../../ui/write-button';
import type { DraftWidget, Layout } from './draft';
import { overlaps } from './placement';
import { Loading } from '../../../ui/loading';

// CodeMirror and its languages load with the first custom widget selected, not with the editor.
const CustomCodePanel = lazy(() => import('./custom-code'));

type Side = keyof GridPlacement;
/** Shown counting from 1, as people count cells; stored from 0, as the API has them. */
const SIDES: { side: Side; label: string; offset: number }[] = [
  { side: 'column', label: 'Column', offset: 1 },
  { side: 'row', label: 'Row', offset: 1 },
  { side: 'width', label: 'Width (cells)', offset: 0 },
  { side: 'height', label: 'Height (cells)', offset: 0 },
];

/** Why a placement typed in cannot be taken, or null when it can. */
function placementProblem(
  next: GridPlacement,
  board: Pick<Board, 'columns' | 'rows'>,
  others: readonly DraftWidget[],
): string | null {
  if (next.column < 0 || next.row < 0 || next.width < 1 || next.height < 1) return 'Out of the grid';
  if (next.column + next.width > board.columns) return `Past the board's ${board.columns} columns`;
  if (next.row + next.height > board.rows) return `Past the board's ${board.rows} rows`;
  const covered = others.find((other) => overlaps(next, other));
  return covered ? `It would cover the ${covered.variant} widget` : null;
}

const BACKGROUNDS = [
  { value: 'default', label: "The board's widget color" },
  { value: 'none', label: 'None (see through)' },
  { value: 'color', label: 'A color of its own' },
];

/**
 * The selected widget's placement (typed, for precision and for the keyboard), background and
 * drawing order, and its removal. Every change goes through the editor, so undo covers it.
 */
export function WidgetInspector({
  board,
  layout,
  widget,
  onChange,
  onDelete,
  disabled,
}: {
  board: Board;
  layout: Layout;
  widget: DraftWidget;
  onChange: (layout: Layout) => void;
  onDelete: () => void;
  disabled: boolean;
}) {
  const others = layout.filter((other) => other.key !== widget.key);
  const [typing, setTyped] = useState<{
    widget: DraftWidget;
    side: Side;
    value: string | number;
    problem: string;
  } | null>(null);
  // What was typed belongs to the widget as it was: moved, undone or another one, it is dropped.
  const typed = typing?.widget === widget ? typing : null;
  const update = (next: DraftWidget) =>
    onChange(layout.map((item) => (item.key === widget.key ? next : item)));
  const place = (side: Side, offset: number, value: string | number) => {
    const next = { ...widget, [side]: Number(value) - offset };
    const problem =
      typeof value === 'number' ? placementProblem(next, board, others) : 'Must be a whole number';
    if (problem) setTyped({ widget, side, value, problem });
    else update(next);
  };
  const restack = (front: boolean) => onChange(front ? [...others, widget] : [widget, ...others]);
  const background =
    widget.background === 'default' || widget.background === 'none' ? widget.background : 'color';
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Title order={3} size="h5">
          The selected widget
        </Title>
        <Badge variant="outline">{widget.variant}</Badge>
      </Group>
      <SimpleGrid cols={2} spacing="sm">
        {SIDES.map(({ side, label, offset }) => (
          <NumberInput
            key={side}
            label={label}
            min={1 - offset}
            allowDecimal={false}
            disabled={disabled}
            value={typed?.side === side ? typed.value : widget[side] + offset}
            error={typed?.side === side ? typed.problem : undefined}
            onChange={(value) => place(side, offset, value)}
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Select
          label="Background"
          data={BACKGROUNDS}
          allowDeselect={false}
          disabled={disabled}
          value={background}
          onChange={(value) =>
            update({
              ...widget,
              background: value === 'color' ? '#1f6feb' : value === 'none' ? 'none' : 'default',
            })
          }
        />
        {background === 'color' && (
          <ColorInput
            label="Its color"
            withEyeDropper={false}
            disabled={disabled}
            value={widget.background}
            onChangeEnd={(value) => value && update({ ...widget, background: value })}
          />
        )}
      </SimpleGrid>
      <Group gap="xs">
        <WriteButton
          variant="default"
          size="xs"
          leftSection={<FaIcon icon={faArrowUp} />}
          onClick={() => restack(true)}
        >
          Bring to front
        </WriteButton>
        <WriteButton
          variant="default"
          size="xs"
          leftSection={<FaIcon icon={faArrowDown} />}
          onClick={() => restack(false)}
        >
          Send to back
        </WriteButton>
        <WriteButton
          variant="light"
          color="red"
          size="xs"
          leftSection={<FaIcon icon={faTrash} />}
          onClick={onDelete}
        >
          Remove from the board
        </WriteButton>
      </Group>
      <Text size="xs" c="dimmed">
        Removing a widget keeps its flow and data: other boards and scripts still use them.
      </Text>
      {widget.variant === 'custom' && (
        <Suspense fallback={<Loading size="sm" label="Loading the code editors" />}>
          <CustomCodePanel
            key={widget.key}
            code={widget.code}
            onChange={(code) => update({ ...widget, code })}
            disabled={disabled}
          />
        </Suspense>
      )}
    </Stack>
  );
}
