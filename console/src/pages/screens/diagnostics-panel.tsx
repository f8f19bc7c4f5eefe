import { List, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { deviceStatusSchema, type DeviceStatus } from '../../../../src/shared/device-status';
import { api, ApiError } from '../../api/client';
import { ErrorAlert } from '../../ui/error-panel';
import { TimeAgo } from '../../ui/time';
import { devicePath } from './queries';
import { Section } from './section';

const bytes = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
const megabytes = (count: number) => bytes.format(count / 1_000_000);

function duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min`;
}

/** The last heartbeat: a screen sends one every few seconds, and a heartbeat alone tells no console. */
const REFRESH_MS = 30_000;

export function useDeviceStatus(tag: string) {
  return useQuery({
    queryKey: ['devices', tag, 'status'],
    queryFn: async () => {
      try {
        return await api(deviceStatusSchema, `${devicePath(tag)}/status`);
      } catch (error) {
        // A screen that never sent a heartbeat has no status yet: not an error.
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: REFRESH_MS,
  });
}

const POWER_METHODS = {
  dpms: 'display asleep (DPMS)',
  cec: 'display in standby (HDMI-CEC)',
  black: 'drawn black (the display could not be put to sleep)',
} as const;

/** How the screen stands in its power schedule: on, or off and how. */
function powerOf(power: DeviceStatus['power']): string {
  if (!power?.off) return 'on';
  return `off: ${power.method ? POWER_METHODS[power.method] : 'going to sleep'}`;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function Facts({ status, ip }: { status: DeviceStatus; ip: string | null }) {
  const { memory, cache, display } = status;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" data-testid="diagnostics">
      <Fact label="App version">{status.app_version}</Fact>
      <Fact label="Operating system">{status.os}</Fact>
      <Fact label="CPU load">{Math.round(status.cpu_load)} %</Fact>
      <Fact label="Memory">
        {megabytes(memory.used_bytes)} of {megabytes(memory.total_bytes)}
      </Fact>
      <Fact label="Uptime">{duration(status.uptime_seconds)}</Fact>
      <Fact label="Display">{display ? `${display.width} × ${display.height}` : 'none'}</Fact>
      <Fact label="Cache">
        {cache.items} items, {megabytes(cache.bytes)}
      </Fact>
      <Fact label="Address">{ip ?? '—'}</Fact>
      <Fact label="Last heartbeat">
        <TimeAgo iso={status.received_at} />
      </Fact>
      <Fact label="Showing">{status.showing}</Fact>
      <Fact label="Power">{powerOf(status.power)}</Fact>
      <Fact label="Time zone">{status.time_zone ?? '—'}</Fact>
    </SimpleGrid>
  );
}

/** What the last heartbeat says: the device's health, its recoveries and the items it could not show. */
export function DiagnosticsPanel({ tag, ip }: { tag: string; ip: string | null }) {
  const status = useDeviceStatus(tag);
  const data = status.data;
  return (
    <>
      <Section title="Diagnostics">
        {status.error && <ErrorAlert error={status.error} title="The diagnostics could not be read" />}
        {data === null && (
          <Text size="sm" c="dimmed">
            No heartbeat yet: the screen has not reported since it was paired.
          </Text>
        )}
        {data && (
          <Stack gap="sm">
            <Facts status={data} ip={ip} />
            <div>
              <Text size="xs" c="dimmed">
                Recoveries since the heartbeat before
              </Text>
              {data.recoveries.length === 0 ? (
                <Text size="sm">none</Text>
              ) : (
                <List size="sm">
                  {data.recoveries.map((recovery, index) => (
                    <List.Item key={`${index}:${recovery}`}>{recovery}</List.Item>
                  ))}
                </List>
              )}
            </div>
          </Stack>
        )}
      </Section>
      {data && (
        <Section title={`Failed items (${data.failures.length})`}>
          {data.failures.length === 0 ? (
            <Text size="sm" c="dimmed">
              Everything it was given, it could show.
            </Text>
          ) : (
            <Table aria-label="Failed items">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Why</Table.Th>
                  <Table.Th>Last failed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.failures.map((failure) => (
                  <Table.Tr key={failure.item}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{failure.item}</Table.Td>
                    <Table.Td>{failure.reason}</Table.Td>
                    <Table.Td>
                      <TimeAgo iso={failure.at} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Section>
      )}
    </>
  );
}
