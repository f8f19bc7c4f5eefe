import { faMagnifyingGlass } from '@fortawesome/free-solid-svg-icons';
import { Alert, Group, SegmentedControl, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DeviceOverview } from '../../../src/shared/device';
import { allToggled, kept, toggled } from '../ui/bulk';
import { ErrorAlert } from '../ui/error-panel';
import { FaIcon } from '../ui/fa-icon';
import { PageHeader } from '../ui/page-header';
import { useWriteRefusal } from '../session/session';
import { WriteButton } from '../ui/write-button';
import { PairModal } from './screens/pair-modal';
import { PAIR_PARAM } from './screens/pair-link';
import { useOverview } from './screens/queries';
import { ScreenBulk } from './screens/screen-bulk';
import { ScreenTable } from './screens/screen-table';
import { Loading } from '../ui/loading';

const STATES = ['all', 'online', 'offline'] as const;
type State = (typeof STATES)[number];
const isState = (value: string | null): value is State => STATES.includes(value as State);

const byName = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const plural = (count: number) => `${count} screen${count === 1 ? '' : 's'}`;

/** What a search looks in: the name, tag, description, playlist and what the screen shows. */
const searchTextOf = (screen: DeviceOverview) =>
  [screen.name, screen.tag, screen.description, screen.playing.summary, screen.showing ?? '']
    .join('\n')
    .toLowerCase();

export default function ScreensPage() {
  const overview = useOverview();
  const [opened, { open, close }] = useDisclosure();
  // The search and the filter are in the address: back from a screen's page finds them as they were.
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const stateParam = params.get('state');
  // A screen's pairing link (its QR code) opens the pair dialog with its code, for who may pair.
  const refusal = useWriteRefusal();
  const canWrite = refusal === null;
  const linkCode = params.get(PAIR_PARAM);
  const state: State = isState(stateParam) ? stateParam : 'all';
  const deferredSearch = useDeferredValue(search);
  // From the address as it is now, not as last drawn: a filter clicked and a search typed before
  // the page drew the first would otherwise put the first back.
  const setParam = (name: string, value: string, byDefault: string) => {
    const next = new URLSearchParams(window.location.search);
    if (value === byDefault) next.delete(name);
    else next.set(name, value);
    setParams(next, { replace: true });
  };
  const closePair = () => {
    close();
    // Gone from the address once done with: a reload or going back does not open it again.
    if (linkCode !== null) setParam(PAIR_PARAM, '', '');
  };

  // By name as people read them ("Wall 2" before "Wall 10"), the tag for those without one; each
  // with its text to search, lowered once rather than at every keystroke.
  const screens = useMemo(
    () =>
      overview.data
        ?.map((screen) => ({ screen, text: searchTextOf(screen) }))
        .sort((a, b) => byName.compare(a.screen.name || a.screen.tag, b.screen.name || b.screen.tag)),
    [overview.data],
  );
  const counts = useMemo(() => {
    const online = screens?.filter(({ screen }) => screen.online).length ?? 0;
    return { all: screens?.length ?? 0, online, offline: (screens?.length ?? 0) - online };
  }, [screens]);
  const shown = useMemo(() => {
    const words = deferredSearch.toLowerCase().split(/\s+/).filter(Boolean);
    return (screens ?? [])
      .filter(
        ({ screen, text }) =>
          (state === 'all' || screen.online === (state === 'online')) &&
          words.every((word) => text.includes(word)),
      )
      .map(({ screen }) => screen);
  }, [screens, deferredSearch, state]);

  // The screens chosen for a bulk action, by tag; those deleted meanwhile drop out.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const selected = useMemo(() => {
    const tags = kept(
      chosen,
      (screens ?? []).map(({ screen }) => screen.tag),
    );
    return (screens ?? []).map(({ screen }) => screen).filter((screen) => tags.has(screen.tag));
  }, [chosen, screens]);
  const selection = {
    selected: chosen,
    toggle: (tag: string) => setChosen((current) => toggled(current, tag)),
    toggleAll: () =>
      setChosen((current) =>
        allToggled(
          current,
          shown.map((screen) => screen.tag),
        ),
      ),
  };

  return (
    <>
      <PageHeader
        title="Screens"
        description="Every screen, what it shows and how it is doing."
        actions={<WriteButton onClick={open}>Pair a screen</WriteButton>}
      />
      {linkCode !== null && !canWrite && (
        <Alert color="yellow" mb="md" title={`A screen asks to be paired (code ${linkCode})`}>
          {refusal}
        </Alert>
      )}
      <Group mb="md" gap="sm" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name, tag, description, what it shows"
          leftSection={<FaIcon icon={faMagnifyingGlass} />}
          value={search}
          onChange={(event) => setParam('q', event.currentTarget.value, '')}
          type="search"
          style={{ flex: '1 1 16rem' }}
        />
        <div>
          <VisuallyHidden id="state-filter">Show screens</VisuallyHidden>
          <SegmentedControl
            aria-labelledby="state-filter"
            value={state}
            onChange={(value) => setParam('state', value, 'all')}
            data={[
              { value: 'all', label: `All (${counts.all})` },
              { value: 'online', label: `Online (${counts.online})` },
              { value: 'offline', label: `Offline (${counts.offline})` },
            ]}
          />
        </div>
      </Group>
      {overview.error && <ErrorAlert error={overview.error} title="The screens could not be listed" />}
      {overview.isPending && <Loading label="Loading the screens" />}
      {screens && screens.length > 0 && (
        <>
          <Text size="sm" c="dimmed" mb="xs" role="status">
            {shown.length === screens.length
              ? plural(screens.length)
              : `${shown.length} of ${plural(screens.length)}`}
          </Text>
          <ScreenBulk selected={selected} onClear={() => setChosen(new Set())} />
          <ScreenTable screens={shown} total={screens.length} selection={selection} />
        </>
      )}
      {screens?.length === 0 && <Text c="dimmed">No screens yet: pair one by the code it shows.</Text>}
      {screens && screens.length > 0 && shown.length === 0 && <Text c="dimmed">No screen matches.</Text>}
      <PairModal
        opened={opened || (linkCode !== null && canWrite)}
        code={canWrite ? (linkCode ?? '') : ''}
        onClose={closePair}
      />
    </>
  );
}
