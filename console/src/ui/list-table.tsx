import { Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

interface ListTableProps {
  /** Names the table, and its scrolling region, for assistive technology. */
  label: string;
  columns: readonly string[];
  /** A last column of each row's buttons, its heading read out only. */
  actions?: boolean;
  /** Below this width the table scrolls sideways rather than crushing its columns. */
  minWidth: number;
  striped?: boolean;
  /** The rows. */
  children: ReactNode;
}

/**
 * A list of resources as a table: the console's lists share its frame, so that each scrolls the
 * same way at a phone's width (its region focusable, so a keyboard can scroll it too).
 */
export function ListTable({
  label,
  columns,
  actions = false,
  minWidth,
  striped = true,
  children,
}: ListTableProps) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}
    >
      <Table striped={striped} highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
            {actions && (
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
