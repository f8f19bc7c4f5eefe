import { Anchor, Group, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { playSchema, type Play } from '../../../../src/shared/play';
import { api } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { formatDate } from '../../ui/time';
import { devicePath } from './queries';
import { Section } from './section';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The table shows the latest plays of the last hour: at most one a second, so the answer stays small. */
const RECENT_LIMIT = 3600;
const SHOWN = 20;
const DOWNLOADS = [
  { label: 'last 24 hours', days: 1 },
  { label: 'last 7 days', days: 7 },
  { label: 'last 30 days', days: 30 },
];
/** The most plays a CSV may hold (the service's limit). */
const CSV_LIMIT = 50_000;

const seconds = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

function whatPlayed(play: Play): string {
  return play.type === 'board' ? (play.board_id ?? '') : (play.url ?? '');
}

/** Proof of play: the latest plays, and the CSV of a period (a plain link: the cookie signs it). */
export function PlaysPanel({ tag }: { tag: string }) {
  // The periods' start is fixed when the page opens, so that the links do not change as it renders.
  const [openedAt] = useState(() => Date.now());
  const plays = useQuery({
    queryKey: ['plays', tag],
    queryFn: () => {
      const from = new Date(Date.now() - HOUR_MS).toISOString();
      return api(
        z.array(playSchema),
        `${devicePath(tag)}/plays?format=json&from=${encodeURIComponent(from)}&limit=${RECENT_LIMIT}`,
      );
    },
    select: (found) => found.slice(-SHOWN).reverse(),
  });
  const csvUrl = (days: number) =>
    `${devicePath(tag)}/plays?format=csv&limit=${CSV_LIMIT}&from=${encodeURIComponent(new Date(openedAt - days * DAY_MS).toISOString())}`;
  return (
    <Section
      title="Proof of play"
      actions={
        <Group gap="sm">
          <Text size="sm">Download CSV:</Text>
          {DOWNLOADS.map(({ label, days }) => (
            <Anchor key={days} href={csvUrl(days)} download size="sm" aria-label={`Download CSV, ${label}`}>
              {label}
            </Anchor>
          ))}
        </Group>
      }
    >
      {plays.error && <ErrorAlert error={plays.error} title="The plays could not be read" />}
      {plays.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing played in the last hour.
        </Text>
      )}
      {plays.data && plays.data.length > 0 && (
        <Table aria-label="Latest plays">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Started</Table.Th>
              <Table.Th visibleFrom="sm">Type</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th visibleFrom="sm">Channel</Table.Th>
              <Table.Th>Seconds</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {plays.data.map((play) => (
              <Table.Tr key={play.id} data-testid="play-row">
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <time dateTime={play.started_at} title={formatDate(play.started_at)}>
                    {time.format(new Date(play.started_at))}
                  </time>
                </Table.Td>
                <Table.Td visibleFrom="sm">{play.type}</Table.Td>
                <Table.Td>
                  <Text size="sm" truncate maw={{ base: 120, sm: 320 }} title={whatPlayed(play)}>
                    {whatPlayed(play)}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">{play.channel_id ?? '—'}</Table.Td>
                <Table.Td>{seconds.format(play.seconds)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Section>
  );
}
