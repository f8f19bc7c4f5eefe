import { Anchor, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorAlert } from '../../ui/error-panel';
import { ListTable } from '../../ui/list-table';
import { flowsQuery } from '../flows/flow-queries';
import { widgetsQuery } from './queries';

/** The board's widgets, read only: what each draws, from which flow, on which cells. */
export function WidgetList({ boardId }: { boardId: string }) {
  const widgets = useQuery(widgetsQuery(boardId));
  const flows = useQuery(flowsQuery);
  const tagOf = (flowId: string) => flows.data?.find((flow) => flow.id === flowId)?.tag ?? flowId;
  return (
    <>
      {widgets.error && <ErrorAlert error={widgets.error} title="The widgets could not be listed" />}
      <ListTable label="The board's widgets" minWidth={480} columns={['Variant', 'Flow', 'Cells', 'Size']}>
        {widgets.data?.map((widget) => (
          <Table.Tr key={widget.id}>
            <Table.Td>{widget.variant}</Table.Td>
            <Table.Td>
              <Anchor component={Link} to={`/flows/${encodeURIComponent(widget.flow_id)}`}>
                {tagOf(widget.flow_id)}
              </Anchor>
            </Table.Td>
            <Table.Td>{`column ${widget.column}, row ${widget.row}`}</Table.Td>
            <Table.Td>{`${widget.width} x ${widget.height}`}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {widgets.data?.length === 0 && <Text c="dimmed">No widgets yet: the board is empty.</Text>}
    </>
  );
}
