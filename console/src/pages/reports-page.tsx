import { faDownload } from '@fortawesome/free-solid-svg-icons';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert } from '../ui/error-panel';
import { FaIcon } from '../ui/fa-icon';
import { Loading } from '../ui/loading';
import { PageHeader } from '../ui/page-header';
import { Filters } from './reports/filters';
import { PlaysChart } from './reports/plays-chart';
import { csvHref, totalsQuery, type ReportFilters } from './reports/queries';
import { durationWords, presetDays, type Preset } from './reports/range';
import { TotalsTable } from './reports/totals-table';

function Download({ href, children }: { href: string; children: string }) {
  return (
    <Button component="a" href={href} download variant="default" leftSection={<FaIcon icon={faDownload} />}>
      {children}
    </Button>
  );
}

/**
 * Proof of play for the people who are asked for it (docs/api/commands.md): what played, on which
 * screens, how often and how long, by day, with names; and the spreadsheets to send an advertiser
 * or keep for compliance.
 */
export default function ReportsPage() {
  const [preset, setPreset] = useState<Preset>('7');
  const [filters, setFilters] = useState<ReportFilters>(() => ({
    range: presetDays('7', new Date()),
    deviceTag: null,
    groupId: null,
    boardId: null,
    url: null,
  }));
  // The last answer stays on screen while a new choice loads: the page does not jump.
  const totals = useQuery({ ...totalsQuery(filters), placeholderData: keepPreviousData });
  const rows = totals.data ?? [];
  const plays = rows.reduce((sum, total) => sum + total.plays, 0);
  const seconds = rows.reduce((sum, total) => sum + total.seconds, 0);
  return (
    <>
      <PageHeader
        title="Reports"
        description="What played on your screens, how often and for how long, by day: for advertisers and compliance."
        actions={
          <>
            <Download href={csvHref('/plays/totals', filters)}>Download totals (CSV)</Download>
            <Download href={csvHref('/plays', filters)}>Download every play (CSV)</Download>
          </>
        }
      />
      <Stack gap="lg">
        <Filters
          filters={filters}
          preset={preset}
          onChange={(next, chosen) => {
            setFilters(next);
            setPreset(chosen);
          }}
        />
        {totals.error && <ErrorAlert error={totals.error} title="The report could not be made" />}
        {totals.isPending && <Loading label="Counting the plays" />}
        {totals.data && (
          <>
            <Paper withBorder p="md">
              <Stack gap="xs">
                <Group justify="space-between" align="baseline">
                  <Title order={2} size="h4">
                    Plays per day
                  </Title>
                  <Text size="sm" data-testid="report-summary">
                    {plays.toLocaleString()} {plays === 1 ? 'play' : 'plays'}, {durationWords(seconds)} on
                    screen
                  </Text>
                </Group>
                <PlaysChart totals={rows} range={filters.range} />
              </Stack>
            </Paper>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Totals per day
              </Title>
              {rows.length === 0 ? (
                <Text c="dimmed">No plays on these days for what is chosen.</Text>
              ) : (
                <TotalsTable totals={rows} />
              )}
            </Stack>
          </>
        )}
      </Stack>
    </>
  );
}
