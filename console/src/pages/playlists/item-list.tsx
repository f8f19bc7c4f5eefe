import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { Stack } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import type { ItemDraft } from './draft';
import { ItemRow, type ItemLabel } from './item-row';

interface ItemListProps {
  items: readonly ItemDraft[];
  labelOf: (item: ItemDraft) => ItemLabel;
  errors: FormErrors;
  readOnly: boolean;
  onChange: (update: (items: ItemDraft[]) => ItemDraft[]) => void;
}

/** The refusals of item `index`, by field: `items.2.duration` → `duration`, `items.2` → ''. */
function errorsOf(errors: FormErrors, index: number): Record<string, string> {
  const prefix = `items.${index}`;
  const mine: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    if (path === prefix) mine[''] = String(message);
    else if (path.startsWith(`${prefix}.`)) mine[path.slice(prefix.length + 1)] = String(message);
  }
  return mine;
}

/**
 * The items in order, sorted by dragging their handle or by the keyboard (focus a handle, Space
 * to lift, arrows to move, Space to drop, Escape to cancel); each move is read out.
 */
export function ItemList({ items, labelOf, errors, readOnly, onChange }: ItemListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const titleOf = (id: string | number) => {
    const item = items.find((candidate) => candidate.key === id);
    return item ? labelOf(item).title : 'the item';
  };
  const positionOf = (id: string | number | undefined) => items.findIndex((item) => item.key === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${titleOf(active.id)}, item ${positionOf(active.id)} of ${items.length}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} would move to position ${positionOf(over.id)} of ${items.length}.`
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} moved to position ${positionOf(over.id)} of ${items.length}.`
        : `${titleOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange((current) => {
      const from = current.findIndex((item) => item.key === active.id);
      const to = current.findIndex((item) => item.key === over.id);
      return from < 0 || to < 0 ? current : arrayMove(current, from, to);
    });
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            'To move an item, press Space or Enter on its handle, move it with the arrow keys, and press Space or Enter again to drop it; Escape cancels.',
        },
      }}
    >
      <SortableContext items={items.map((item) => item.key)} strategy={verticalListSortingStrategy}>
        <Stack
          gap="xs"
          component="ol"
          p={0}
          m={0}
          aria-label="Items, in the order they play"
          style={{ listStyle: 'none' }}
        >
          {items.map((item, index) => (
            <ItemRow
              key={item.key}
              item={item}
              index={index}
              label={labelOf(item)}
              errors={errorsOf(errors, index)}
              readOnly={readOnly}
              onChange={(changed) =>
                onChange((current) => current.map((one) => (one.key === item.key ? changed : one)))
              }
              onRemove={() => onChange((current) => current.filter((one) => one.key !== item.key))}
            />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}
