import { Anchor, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { DeviceOverview } from '../../../../src/shared/device';
import { SelectAll } from '../../ui/bulk-bar';
import { TimeAgo } from '../../ui/time';
import { OnlineBadge } from './online-badge';
import { screenshotUrl } from './queries';

/** A row's height before it is measured: a thumbnail and two lines of text. */
const ROW_HEIGHT = 58;
const COLUMNS = { wide: 8, compact: 3 };
const THUMB = { width: 80, height: 45 };

function Thumbnail({ screen }: { screen: DeviceOverview }) {
  const style = { width: THUMB.width, height: THUMB.height, borderRadius: 4, display: 'block' };
  if (!screen.screenshot_taken_at) {
    return (
      <Text
        component="span"
        size="xs"
        c="dimmed"
        style={{
          ...style,
          border: '1px dashed var(--mantine-color-default-border)',
          textAlign: 'center',
          lineHeight: `${THUMB.height}px`,
        }}
      >
        none
      </Text>
    );
  }
  return (
    <img
      src={screenshotUrl(screen.tag, screen.screenshot_taken_at)}
      loading="lazy"
      alt=""
      width={THUMB.width}
      height={THUMB.height}
      style={{ ...style, objectFit: 'contain', background: 'var(--mantine-color-default-hover)' }}
    />
  );
}

function Name({ screen }: { screen: DeviceOverview }) {
  return (
    <>
      <Anchor component={Link} to={`/screens/${encodeURIComponent(screen.tag)}`} fw={500} truncate>
        {screen.name || screen.tag}
      </Anchor>
      <Text size="xs" c="dimmed" truncate>
        {screen.tag}
      </Text>
    </>
  );
}

/**
 * What it should show by its rules (schedule, power window, wake, override), and what it reports
 * under it; in red when the two disagree (src/shared/playing.ts).
 */
function Shows({ screen }: { screen: DeviceOverview }) {
  const { kind, summary, agrees, detail } = screen.playing;
  return (
    <>
      <Text size="sm" truncate title={summary}>
        {kind === 'nothing' ? (
          <Text span c="dimmed" size="sm">
            no playlist
          </Text>
        ) : (
          summary
        )}
      </Text>
      {agrees === false ? (
        <Text size="xs" c="red" fw={600} truncate title={detail ?? undefined} data-testid="disagrees">
          ⚠ {detail?.replace(/^should [^,]*, /, '')}
        </Text>
      ) : (
        <Text size="xs" c="dimmed" truncate title={screen.showing ?? undefined}>
          {screen.showing ?? '—'}
        </Text>
      )}
    </>
  );
}

function Failures({ count }: { count: number }) {
  return (
    <Text span size="sm" c={count > 0 ? 'red' : undefined} fw={count > 0 ? 600 : undefined}>
      {count}
    </Text>
  );
}

/** A phone's row: everything in one cell beside the thumbnail, as a table that wide would scroll. */
function CompactRow({ screen }: { screen: DeviceOverview }) {
  return (
    <>
      <Table.Td>
        <Thumbnail screen={screen} />
      </Table.Td>
      <Table.Td>
        <Stack gap={2} miw={0}>
          <Name screen={screen} />
          <Group gap="xs" wrap="nowrap">
            <OnlineBadge online={screen.online} />
            <Text size="xs" c="dimmed" truncate>
              {screen.last_seen_date ? (
                <>
                  seen <TimeAgo iso={screen.last_seen_date} />
                </>
              ) : (
                'never seen'
              )}
              {screen.failures > 0 && ` · ${screen.failures} failed`}
            </Text>
          </Group>
          <Shows screen={screen} />
        </Stack>
      </Table.Td>
    </>
  );
}

function ScreenRow({ screen }: { screen: DeviceOverview }) {
  return (
    <>
      <Table.Td>
        <Thumbnail screen={screen} />
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Name screen={screen} />
        </Stack>
      </Table.Td>
      <Table.Td>
        <OnlineBadge online={screen.online} />
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Shows screen={screen} />
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          <TimeAgo iso={screen.last_seen_date} />
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{screen.app_version ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <Failures count={screen.failures} />
      </Table.Td>
    </>
  );
}

/** Which screens are selected (by tag) for the bulk actions, and how the checkboxes change it. */
export interface ScreenSelection {
  selected: ReadonlySet<string>;
  toggle(tag: string): void;
  /** Every screen shown in or out (ui/bulk.ts `allToggled`). */
  toggleAll(): void;
}

function SelectCell({ screen, selection }: { screen: DeviceOverview; selection: ScreenSelection }) {
  return (
    <Table.Td>
      <Checkbox
        aria-label={`Select ${screen.name || screen.tag}`}
        checked={selection.selected.has(screen.tag)}
        onChange={() => selection.toggle(screen.tag)}
      />
    </Table.Td>
  );
}

/**
 * The screens as a table whose rows outside the window are not drawn (the page scrolls as
 * usual): a thousand screens cost the rows in view. Padding rows keep the scroll height.
 */
export function ScreenTable({
  screens,
  total,
  selection,
}: {
  screens: readonly DeviceOverview[];
  total: number;
  selection: ScreenSelection;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [offset, setOffset] = useState(0);
  // Where the rows start in the page: whatever is drawn above them (an alert, a wrapped header)
  // moves them, and any such change changes the page's height.
  useLayoutEffect(() => {
    const element = body.current;
    if (!element) return;
    const measure = () => setOffset(element.getBoundingClientRect().top + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: screens.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: offset,
    getItemKey: (index) => screens[index]?.id ?? index,
  });
  // At a phone's width a row keeps to two columns rather than scroll sideways.
  const compact = useMediaQuery('(max-width: 48em)') ?? false;
  const columns = compact ? COLUMNS.compact : COLUMNS.wide;
  const rows = virtualizer.getVirtualItems();
  const before = rows.length > 0 ? (rows[0]?.start ?? 0) - offset : 0;
  const after = rows.length > 0 ? virtualizer.getTotalSize() - ((rows.at(-1)?.end ?? 0) - offset) : 0;
  return (
    <Table.ScrollContainer minWidth={compact ? 0 : 880} type="native">
      <Table
        verticalSpacing={6}
        highlightOnHover
        // Fixed columns: they keep their widths as rows scroll in and out, and lay out faster.
        layout="fixed"
        aria-rowcount={screens.length + 1}
        aria-label={`Screens: ${screens.length} of ${total}`}
      >
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th w={44}>
              <SelectAll
                label="Select every screen shown"
                selection={selection.selected}
                shown={screens.map((screen) => screen.tag)}
                onChange={selection.toggleAll}
              />
            </Table.Th>
            <Table.Th w={THUMB.width + 20}>Screenshot</Table.Th>
            <Table.Th>Screen</Table.Th>
            {!compact && (
              <>
                <Table.Th w={110}>State</Table.Th>
                <Table.Th w="24%">Shows</Table.Th>
                <Table.Th w={150}>Last seen</Table.Th>
                <Table.Th w={90}>Version</Table.Th>
                <Table.Th w={80}>Failures</Table.Th>
              </>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody ref={body}>
          {before > 0 && (
            <tr aria-hidden>
              <td colSpan={columns} style={{ height: before, padding: 0 }} />
            </tr>
          )}
          {rows.map((row) => {
            const screen = screens[row.index];
            if (!screen) return null;
            return (
              <Table.Tr
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                aria-rowindex={row.index + 2}
                data-testid="screen-row"
              >
                <SelectCell screen={screen} selection={selection} />
                {compact ? <CompactRow screen={screen} /> : <ScreenRow screen={screen} />}
              </Table.Tr>
            );
          })}
          {after > 0 && (
            <tr aria-hidden>
              <td colSpan={columns} style={{ height: after, padding: 0 }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
