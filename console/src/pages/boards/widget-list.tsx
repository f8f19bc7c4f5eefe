import { Button, Table, Text } from '@mantine/core';
import { ListTable } from '../../ui/list-table';
import type { DraftWidget, Layout } from './editor/draft';

/**
 * The board's widgets as edited, in drawing order (the last on top): what each draws, from which
 * flow, on which cells; a row's button selects its widget, which on a phone's small preview is
 * the easier way to it.
 */
export function WidgetList({
  layout,
  tagOf,
  selected,
  onSelect,
}: {
  layout: Layout;
  tagOf: (widget: DraftWidget) => string;
  selected: string | null;
  onSelect: (key: string) => void;
}) {
  if (layout.length === 0) {
    return <Text c="dimmed">No widgets yet: the board is empty. Add one from the gallery.</Text>;
  }
  return (
    <ListTable
      label="The board's widgets"
      minWidth={480}
      columns={['Variant', 'Flow', 'Cells', 'Size']}
      actions
      striped={false}
    >
      {layout.map((widget) => (
        <Table.Tr
          key={widget.key}
          bg={widget.key === selected ? 'var(--mantine-primary-color-light)' : undefined}
        >
          <Table.Td>{widget.variant}</Table.Td>
          <Table.Td>{tagOf(widget)}</Table.Td>
          <Table.Td>{`column ${widget.column + 1}, row ${widget.row + 1}`}</Table.Td>
          <Table.Td>{`${widget.width} x ${widget.height}`}</Table.Td>
          <Table.Td>
            <Button
              size="compact-xs"
              variant="subtle"
              aria-pressed={widget.key === selected}
              aria-label={`Select the ${widget.variant} widget showing ${tagOf(widget)}`}
              onClick={() => onSelect(widget.key)}
            >
              Select
            </Button>
          </Table.Td>
        </Table.Tr>
      ))}
    </ListTable>
  );
}
