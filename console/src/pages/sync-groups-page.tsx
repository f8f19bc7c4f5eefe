import {
  Button,
  Card,
  Checkbox,
  Group as Row,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import {
  syncGroupSchema,
  syncMemberSchema,
  type SyncGroup,
  type SyncMember,
  type Wall,
} from '../../../src/shared/sync';
import { api, send } from '../api/client';
import { confirmAction } from '../ui/confirm';
import { ErrorAlert } from '../ui/error-panel';
import { PageHeader } from '../ui/page-header';
import { WriteButton } from '../ui/write-button';
import { useOverview } from './screens/queries';

const groupPath = (id: string) => `/sync-groups/${encodeURIComponent(id)}`;
const groupsQuery = {
  queryKey: ['groups', 'sync'],
  queryFn: () => api(z.array(syncGroupSchema), '/sync-groups'),
};

/** A 55-inch screen's picture and a thin bezel: what most lobby walls are made of. */
const DEFAULT_WALL: Wall = {
  columns: 2,
  rows: 2,
  screen_width_mm: 1210,
  screen_height_mm: 680,
  bezel_x_mm: 12,
  bezel_y_mm: 12,
};

function WallFields({ wall, onChange }: { wall: Wall; onChange: (wall: Wall) => void }) {
  const field = (key: keyof Wall, label: string, props: { min: number; max: number; step?: number }) => (
    <NumberInput
      label={label}
      value={wall[key]}
      {...props}
      onChange={(value) =>
        onChange({ ...wall, [key]: typeof value === 'number' ? value : Number(value) || 0 })
      }
    />
  );
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }}>
      {field('columns', 'Screens across', { min: 1, max: 16 })}
      {field('rows', 'Screens down', { min: 1, max: 16 })}
      {field('screen_width_mm', 'Picture width (mm)', { min: 1, max: 10_000 })}
      {field('screen_height_mm', 'Picture height (mm)', { min: 1, max: 10_000 })}
      {field('bezel_x_mm', 'Gap between side by side (mm)', { min: 0, max: 10_000, step: 0.5 })}
      {field('bezel_y_mm', 'Gap between one above the other (mm)', { min: 0, max: 10_000, step: 0.5 })}
    </SimpleGrid>
  );
}

/** Creates a sync group: a name and, for a wall, its size and bezels. */
function NewGroup({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [isWall, setIsWall] = useState(true);
  const [wall, setWall] = useState<Wall>(DEFAULT_WALL);
  const create = useMutation({
    mutationFn: () =>
      api(syncGroupSchema, '/sync-groups', { method: 'POST', body: { name, wall: isWall ? wall : null } }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Card withBorder component="form" onSubmit={submit}>
      <Stack>
        <Title order={3}>New sync group</Title>
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Checkbox
          label="The screens make one wall (one picture across them)"
          checked={isWall}
          onChange={(event) => setIsWall(event.currentTarget.checked)}
        />
        {isWall && <WallFields wall={wall} onChange={setWall} />}
        {create.error && <ErrorAlert error={create.error} title="The sync group was not created" />}
        <Row>
          <WriteButton type="submit" loading={create.isPending}>
            Create the sync group
          </WriteButton>
        </Row>
      </Stack>
    </Card>
  );
}

/** One group: its wall's cells, each with the screen placed there, or its screens without a wall. */
function GroupCard({ group, screens }: { group: SyncGroup; screens: { value: string; label: string }[] }) {
  const queries = useQueryClient();
  const membersKey = ['groups', 'sync', group.id, 'screens'];
  const members = useQuery({
    queryKey: membersKey,
    queryFn: () => api(z.array(syncMemberSchema), `${groupPath(group.id)}/screens`),
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['groups'] });
  const place = useMutation({
    mutationFn: ({ tag, column, row }: { tag: string; column: number | null; row: number | null }) =>
      api(z.array(syncMemberSchema), `${groupPath(group.id)}/screens/${encodeURIComponent(tag)}`, {
        method: 'PUT',
        body: { column, row },
      }),
    onSettled: refresh,
  });
  const takeOut = useMutation({
    mutationFn: (tag: string) =>
      send(`${groupPath(group.id)}/screens/${encodeURIComponent(tag)}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
  const restart = useMutation({
    mutationFn: () => api(syncGroupSchema, groupPath(group.id), { method: 'PATCH', body: { restart: true } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => send(groupPath(group.id), { method: 'DELETE' }),
    onSettled: refresh,
  });
  const askDelete = async () => {
    const sure = await confirmAction({
      title: `Delete the sync group “${group.name}”?`,
      body: 'Its screens stay, and play on their own again.',
      confirm: 'Delete the sync group',
    });
    if (sure) remove.mutate();
  };
  const at = (column: number, row: number): SyncMember | undefined =>
    members.data?.find((member) => member.column === column && member.row === row);
  const cellChange = (column: number, row: number, tag: string | null) => {
    const held = at(column, row);
    if (held && held.device_tag !== tag) takeOut.mutate(held.device_tag);
    if (tag) place.mutate({ tag, column, row });
  };
  const wall = group.wall;
  const error = place.error ?? takeOut.error ?? restart.error ?? remove.error;
  return (
    <Card withBorder>
      <Stack>
        <Row justify="space-between">
          <Title order={3}>{group.name}</Title>
          <Row gap="xs">
            <WriteButton variant="default" size="compact-sm" onClick={() => restart.mutate()}>
              Start over together
            </WriteButton>
            <WriteButton variant="subtle" color="red" size="compact-sm" onClick={() => void askDelete()}>
              Delete
            </WriteButton>
          </Row>
        </Row>
        <Text size="sm" c="dimmed">
          {wall
            ? `A wall of ${wall.columns} x ${wall.rows} screens (${wall.screen_width_mm} x ${wall.screen_height_mm} mm each, gaps of ${wall.bezel_x_mm} and ${wall.bezel_y_mm} mm). Choose the screen at each place, as seen from the front.`
            : 'Screens that switch items together. Add the screens of this group.'}
        </Text>
        {error && <ErrorAlert error={error} title="The change was not saved" />}
        {wall ? (
          // As seen from the front; on a phone one cell a line, each named by its place, so that
          // the screens' names are read whole.
          <SimpleGrid cols={{ base: 1, xs: wall.columns }} spacing="xs" data-testid="wall-grid">
            {Array.from({ length: wall.rows * wall.columns }, (_, cell) => {
              const column = cell % wall.columns;
              const row = Math.floor(cell / wall.columns);
              return (
                <Select
                  key={cell}
                  label={`Screen at column ${column + 1}, row ${row + 1}`}
                  placeholder="No screen"
                  data={screens}
                  value={at(column, row)?.device_tag ?? null}
                  clearable
                  searchable
                  onChange={(tag) => cellChange(column, row, tag)}
                />
              );
            })}
          </SimpleGrid>
        ) : (
          <Stack gap="xs">
            {members.data?.map((member) => (
              <Row key={member.device_tag} justify="space-between">
                <Text>
                  {screens.find((screen) => screen.value === member.device_tag)?.label ?? member.device_tag}
                </Text>
                <Button variant="subtle" size="compact-sm" onClick={() => takeOut.mutate(member.device_tag)}>
                  Take out
                </Button>
              </Row>
            ))}
            <Select
              aria-label="Add a screen"
              placeholder="Add a screen"
              data={screens.filter(
                (screen) => !members.data?.some((member) => member.device_tag === screen.value),
              )}
              value={null}
              searchable
              onChange={(tag) => tag && place.mutate({ tag, column: null, row: null })}
            />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** Sync groups and walls (docs/sync.md): screens that switch together, or show one picture across them. */
export default function SyncGroupsPage() {
  const groups = useQuery(groupsQuery);
  const overview = useOverview();
  const queries = useQueryClient();
  const [creating, setCreating] = useState(false);
  const screens = (overview.data ?? [])
    .map((screen) => ({
      value: screen.tag,
      label: screen.name ? `${screen.name} (${screen.tag})` : screen.tag,
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <>
      <PageHeader
        title="Sync groups"
        description="Screens that switch items on the same frame, by the service's clock; as a wall, one board or video across all of them."
        actions={<WriteButton onClick={() => setCreating(true)}>New sync group</WriteButton>}
      />
      <Stack>
        {creating && (
          <NewGroup
            onDone={() => {
              setCreating(false);
              void queries.invalidateQueries({ queryKey: ['groups'] });
            }}
          />
        )}
        {groups.error && <ErrorAlert error={groups.error} title="The sync groups could not be listed" />}
        {groups.data?.map((group) => (
          <GroupCard key={group.id} group={group} screens={screens} />
        ))}
        {groups.data?.length === 0 && !creating && <Text c="dimmed">No sync groups yet.</Text>}
      </Stack>
    </>
  );
}
