import { faDownload } from '@fortawesome/free-solid-svg-icons';
import { Button, Group, Modal, Select, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { auditEntrySchema, type AuditEntry } from '../../../src/shared/audit';
import { api } from '../api/client';
import { ErrorAlert } from '../ui/error-panel';
import { FaIcon } from '../ui/fa-icon';
import { ListTable } from '../ui/list-table';
import { Loading } from '../ui/loading';
import { PageHeader } from '../ui/page-header';
import { TimeAgo } from '../ui/time';
import { EntryDetails } from './audit/entry-details';
import {
  actionLabel,
  auditSearch,
  exportHref,
  RESOURCE_LABELS,
  subjectOf,
  type AuditFilters,
} from './audit/entries';

const PAGE = 100;
const RESOURCE_OPTIONS = Object.entries(RESOURCE_LABELS)
  .map(([value, label]) => ({ value, label }))
  .sort((a, b) => a.label.localeCompare(b.label));

function Download({ href, children }: { href: string; children: string }) {
  return (
    <Button component="a" href={href} download variant="default" leftSection={<FaIcon icon={faDownload} />}>
      {children}
    </Button>
  );
}

function useEntries(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => {
      const extra: Record<string, string> = { limit: String(PAGE) };
      if (pageParam !== undefined) extra.before = String(pageParam);
      return api(z.array(auditEntrySchema), `/audit?${auditSearch(filters, extra)}`);
    },
    getNextPageParam: (last) => (last.length === PAGE ? last.at(-1)?.id : undefined),
    placeholderData: keepPreviousData,
  });
}

function EntryRow({ entry, onOpen }: { entry: AuditEntry; onOpen: (entry: AuditEntry) => void }) {
  const what = subjectOf(entry);
  return (
    <Table.Tr>
      <Table.Td>
        <TimeAgo iso={entry.at} />
      </Table.Td>
      <Table.Td>
        {entry.actor.name || entry.actor.id}
        <Text span size="xs" c="dimmed">
          {' '}
          {entry.actor.kind}
        </Text>
      </Table.Td>
      <Table.Td>{entry.actor.address ?? '—'}</Table.Td>
      <Table.Td>{what}</Table.Td>
      <Table.Td>{actionLabel(entry.action)}</Table.Td>
      <Table.Td>
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => onOpen(entry)}
          aria-label={`Details: ${actionLabel(entry.action)} ${what}`}
        >
          Details
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The audit trail (docs/audit.md), for admins: who changed what, when and from where, each
 * change's fields before and after in words; the same entries exported as CSV or JSON.
 */
export default function AuditPage() {
  const [filters, setFilters] = useState<AuditFilters>({ resource: null, who: '', first: '', last: '' });
  // What is typed in "Who" is asked for once the typing pauses.
  const [asked] = useDebouncedValue(filters, 300);
  const entries = useEntries(asked);
  const [open, setOpen] = useState<AuditEntry | null>(null);
  const set = (change: Partial<AuditFilters>) => setFilters((current) => ({ ...current, ...change }));
  const rows = entries.data?.pages.flat() ?? [];
  return (
    <>
      <PageHeader
        title="Audit trail"
        description="Who changed what, when and from where, and each sign-in. Data that screens and clients feed is not recorded."
        actions={
          <>
            <Download href={exportHref(asked, 'csv')}>Export CSV</Download>
            <Download href={exportHref(asked, 'json')}>Export JSON</Download>
          </>
        }
      />
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Select
            label="What"
            placeholder="Everything"
            data={RESOURCE_OPTIONS}
            value={filters.resource}
            onChange={(resource) => set({ resource })}
            searchable
            clearable
            nothingFoundMessage="Nothing by that name"
          />
          <TextInput
            label="Who"
            description="A login, a token's name or an id"
            value={filters.who}
            onChange={(event) => set({ who: event.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="From"
            value={filters.first}
            max={filters.last || undefined}
            onChange={(event) => set({ first: event.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            value={filters.last}
            min={filters.first || undefined}
            onChange={(event) => set({ last: event.currentTarget.value })}
          />
        </SimpleGrid>
        {entries.error && <ErrorAlert error={entries.error} title="The audit trail could not be read" />}
        {entries.isPending && <Loading label="Reading the audit trail" />}
        {entries.data && rows.length === 0 && <Text c="dimmed">Nothing recorded matches these filters.</Text>}
        {rows.length > 0 && (
          <ListTable
            label="Audit trail"
            columns={['When', 'Who', 'From', 'What', 'Action']}
            actions
            minWidth={720}
          >
            {rows.map((entry) => (
              <EntryRow key={entry.id} entry={entry} onOpen={setOpen} />
            ))}
          </ListTable>
        )}
        {entries.hasNextPage && (
          <Group>
            <Button
              variant="default"
              loading={entries.isFetchingNextPage}
              onClick={() => void entries.fetchNextPage()}
            >
              Show older entries
            </Button>
          </Group>
        )}
      </Stack>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title="What changed" size="xl">
        {open && <EntryDetails entry={open} />}
      </Modal>
    </>
  );
}
