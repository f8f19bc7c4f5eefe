import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PlayTotal, TotalType } from '../../../../src/shared/play-report';
import { ListTable } from '../../ui/list-table';
import { dayWords, durationWords } from './range';

/** Rows drawn at most: a month of many items is thousands; the CSV holds them all. */
const SHOWN = 300;

const TYPE_WORDS: Record<TotalType, string> = { board: 'Board', medium: 'Medium', web: 'Web page' };

const keyOf = (total: PlayTotal) => `${total.day} ${total.type} ${total.item_id ?? total.url}`;

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

function TypeBadge({ type }: { type: TotalType }) {
  return (
    <Badge
      variant="light"
      color={type === 'board' ? 'blue' : type === 'medium' ? 'grape' : 'teal'}
      style={{ flexShrink: 0 }}
    >
      {TYPE_WORDS[type]}
    </Badge>
  );
}

/** A name that may be a long URL: it wraps anywhere rather than widening the page. */
function ItemName({ total }: { total: PlayTotal }) {
  return (
    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} title={total.url ?? total.item_id ?? ''}>
      {total.name}
    </Text>
  );
}

/**
 * What played, per day and item: how often, how long, on how many screens. A table at a desk; on
 * a phone a card per row, since the table would keep the figures off to the right.
 */
export function TotalsTable({ totals }: { totals: readonly PlayTotal[] }) {
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const shown = totals.slice(0, SHOWN);
  const more =
    totals.length > SHOWN ? (
      <Text size="sm" c="dimmed">
        {plural(totals.length - SHOWN, 'more row')} in the CSV download.
      </Text>
    ) : null;
  if (phone) {
    return (
      <Stack gap="xs">
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Totals per day">
          {shown.map((total) => (
            <Paper key={keyOf(total)} withBorder p="sm" component="li" data-testid="total">
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <ItemName total={total} />
                <TypeBadge type={total.type} />
              </Group>
              <Text size="xs" c="dimmed">
                {dayWords(total.day)}
              </Text>
              <Text size="sm">
                {plural(total.plays, 'play')} · {durationWords(total.seconds)} ·{' '}
                {plural(total.screens, 'screen')}
              </Text>
            </Paper>
          ))}
        </Stack>
        {more}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <ListTable
        label="Totals per day"
        columns={['Day', 'Item', 'Type', 'Plays', 'Time on screen', 'Screens']}
        minWidth={640}
      >
        {shown.map((total) => (
          <Table.Tr key={keyOf(total)} data-testid="total">
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{dayWords(total.day)}</Table.Td>
            <Table.Td>
              <ItemName total={total} />
            </Table.Td>
            <Table.Td>
              <TypeBadge type={total.type} />
            </Table.Td>
            <Table.Td>{total.plays.toLocaleString()}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{durationWords(total.seconds)}</Table.Td>
            <Table.Td>{total.screens.toLocaleString()}</Table.Td>
          </Table.Tr>
        ))}
      </ListTable>
      {more}
    </Stack>
  );
}
