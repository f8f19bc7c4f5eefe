import { Anchor, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { DeviceOverview } from '../../../../src/shared/device';
import { useCanWrite } from '../../session/session';
import { ListTable } from '../../ui/list-table';
import { WriteButton } from '../../ui/write-button';

/**
 * The group's screens as the page's draft has them, and the others to add (a screen is in one
 * group at most). Taking out and adding change the draft; the page's one Save moves the screens.
 */
export function Members({
  screens,
  members,
  onChange,
}: {
  screens: readonly DeviceOverview[];
  /** The tags of the screens in the group, as edited. */
  members: readonly string[];
  onChange: (tags: string[]) => void;
}) {
  const canWrite = useCanWrite();
  const [adding, setAdding] = useState<string[]>([]);
  const shown = screens.filter((screen) => members.includes(screen.tag));
  const others = screens
    .filter((screen) => !members.includes(screen.tag))
    .map((screen) => ({
      value: screen.tag,
      label: `${screen.name || screen.tag}${screen.group_id ? ' (in another group)' : ''}`,
    }));
  return (
    <Stack gap="sm">
      <ListTable label="Screens of the group" minWidth={360} columns={['Screen', 'Tag']} actions>
        {shown.map((screen) => (
          <Table.Tr key={screen.tag}>
            <Table.Td>
              <Anchor component={Link} to={`/screens/${encodeURIComponent(screen.tag)}`}>
                {screen.name || screen.tag}
              </Anchor>
            </Table.Td>
            <Table.Td>{screen.tag}</Table.Td>
            <Table.Td>
              <WriteButton
                size="compact-sm"
                variant="subtle"
                aria-label={`Take ${screen.name || screen.tag} out of the group`}
                onClick={() => onChange(members.filter((tag) => tag !== screen.tag))}
              >
                Take out
              </WriteButton>
            </Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {shown.length === 0 && <Text c="dimmed">No screens in this group yet.</Text>}
      <Group align="flex-end" gap="sm">
        <MultiSelect
          label="Add screens"
          data={others}
          searchable
          value={adding}
          onChange={setAdding}
          disabled={!canWrite}
          style={{ flex: 1 }}
        />
        <WriteButton
          variant="default"
          disabled={adding.length === 0}
          onClick={() => {
            onChange([...members, ...adding]);
            setAdding([]);
          }}
        >
          Add to the group
        </WriteButton>
      </Group>
    </Stack>
  );
}
