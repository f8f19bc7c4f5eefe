import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { NotificationSound, PlayerState, WallboardBridge } from '../../../src/shared/bridge';
import type { Notification } from '../../../src/shared/notification';
import { ScreenOff } from '../screen/screen-off';
import type { FlowStore } from '../store/flow-store';
import { ItemLayer } from './item-layer';
import { NotificationArea } from './notification-area';
import { NotificationQueue } from './notification-queue';
import { reportPlays } from './play-report';
import { ScreenReporter } from './screen-report';
import { Sequencer } from './sequencer';
import type { SequencerOptions, Slot } from './slot';
import { SharedClock, type SharedTime } from './shared-clock';
import { playSound, soundSource } from './sound';
import { WebProvider } from './web-provider';
import './player.css';

const MAX_LOG = 4096;
/**
 * How long a channel's notification waits for a board on screen that uses the channel. A board's
 * new channels reach the screen a moment after the event that says so (the agent gathers events
 * for 200 ms, then fetches the board), and a notification sent right after that save can come
 * first; past this, a channel no board on screen uses is not this screen's.
 */
export const CHANNEL_WAIT_MS = 3000;
const MAX_ITEM = 2048;
const MAX_REASON = 1024;

interface PlayerProps {
  state: PlayerState;
  store: FlowStore;
  bridge: WallboardBridge;
  /** Shown while nothing of the playlist can play. */
  waiting: ReactNode;
  /** A power window: black, nothing advances or sounds, no plays; back on, the item on screen starts over. */
  off?: boolean;
  /**
   * What covers the player, as the screen reports it (an emergency override: `override:<id>`),
   * or null. Covered, it is still as when off (nothing advances, sounds or counts as played, a
   * notification is dropped) but stays mounted underneath, so that uncovered it shows the same
   * item again, started over.
   */
  cover?: string | null;
  /** Timing of the sequencer, for tests. */
  timing?: Pick<SequencerOptions, 'prepareLeadMs' | 'readyTimeoutMs'>;
  /** The shared clock of a sync group, for tests; by default sampled from the agent over the bridge. */
  clock?: SharedTime;
}

/**
 * Plays the playlist of the state, full screen, with the notifications of the channels on
 * screen, and those sent to the screen itself, over it at the bottom (which: see docs/player.md).
 */
export function Player({
  state,
  store,
  bridge,
  waiting,
  off = false,
  cover = null,
  timing,
  clock,
}: PlayerProps) {
  const [sequencer] = useState(() => new Sequencer(timing));
  const sync = state.settings?.sync ?? null;
  const shared = useSharedClock(sync !== null, bridge, clock);
  const [queue] = useState(() => new NotificationQueue());
  // The sound the agent resolved for each notification delivered, by the object it came in.
  const [sounds] = useState(() => new WeakMap<Notification, NotificationSound>());
  const media = state.media;

  const log = useCallback(
    (level: 'info' | 'warn', message: string) => bridge.log({ level, message: message.slice(0, MAX_LOG) }),
    [bridge],
  );

  const reporter = useMemo(() => new ScreenReporter((report) => bridge.reportShowing(report)), [bridge]);
  useEffect(() => reporter.watch(), [reporter]);
  useEffect(() => reporter.setOff(off), [reporter, off]);
  useEffect(() => reporter.setCover(cover), [reporter, cover]);
  /** Off or covered: nothing of the playlist is seen, so nothing advances, sounds or counts. */
  const still = off || cover !== null;
  const why = off ? 'the screen is off' : 'an override covers the screen';

  // Still: paused before the state is taken below, so a screen that starts off never starts its
  // first item. Notifications are about now: those on screen and waiting are dropped, not kept
  // for the morning.
  useLayoutEffect(() => {
    if (!still) return;
    sequencer.pause();
    const dropped = queue.clear();
    if (dropped > 0) log('info', `${why}: ${dropped} notification(s) dropped`);
  }, [sequencer, queue, still, why, log]);

  // Layout effects, in this order: the new state is taken before the browser paints, so a frame
  // never pairs the new state with the items of the old one.
  useLayoutEffect(() => {
    sequencer.attach({
      log,
      report: (showing) => reporter.report(showing),
      failed: (item, reason) =>
        bridge.reportFailure({ item: item.slice(0, MAX_ITEM), reason: reason.slice(0, MAX_REASON) }),
    });
  }, [sequencer, bridge, reporter, log]);
  // In a sync group the shared timeline decides what plays, as soon as the clock is known
  // (before the state is taken, so a first state already plays by it).
  useLayoutEffect(() => {
    if (!shared) return sequencer.setClock(null);
    sequencer.setClock(shared.clock);
    return shared.onKnown(() => sequencer.setClock(shared.clock));
  }, [sequencer, shared]);
  useLayoutEffect(() => sequencer.update(state), [sequencer, state]);
  useLayoutEffect(() => {
    queue.attach({
      log,
      onShow: (notification) => {
        const src = soundSource(sounds.get(notification) ?? null);
        if (src) playSound(src, log);
      },
    });
  }, [queue, sounds, log]);

  // Mounted, or back on (uncovered): the item on screen starts over.
  useEffect(() => {
    if (still) return;
    sequencer.resume();
    queue.resume();
    return () => {
      sequencer.pause();
      queue.pause();
    };
  }, [sequencer, queue, still]);

  // Proof of play: each item, as it leaves the screen. Going off (or covered) ends the item's
  // play there; nothing is reported while off or covered.
  useEffect(
    () => (still ? undefined : reportPlays(sequencer, (play) => bridge.reportPlay(play))),
    [sequencer, bridge, still],
  );

  useEffect(() => {
    /** The channel notifications waiting for a board that uses their channel: how to stop each. */
    const waits = new Set<() => void>();
    const show = (notification: Notification, sound: NotificationSound | null) => {
      sounds.set(notification, sound);
      queue.push(notification);
    };
    const stop = bridge.onMessage((message) => {
      // Checked against the contract where it entered the page (the bridge's client).
      if (message.kind !== 'notification') return;
      const { notification, sound } = message;
      if (still) {
        log('info', `notification ${notification.id} not shown: ${why}`);
        return;
      }
      // A channel's is for the screens whose boards on screen use it; one sent to screens (every
      // screen, a group, this screen: `channel_id` null) reached this one on purpose, so it shows
      // over whatever plays, a board, an image, a video or the waiting screen.
      const channelId = notification.channel_id;
      const onScreen = () => sequencer.getSnapshot().channels.has(channelId ?? '');
      if (channelId === null || onScreen()) {
        show(notification, sound);
        return;
      }
      const end = () => {
        waits.delete(end);
        unsubscribe();
        clearTimeout(timer);
      };
      const unsubscribe = sequencer.subscribe(() => {
        if (!onScreen()) return;
        end();
        show(notification, sound);
      });
      const timer = setTimeout(() => {
        end();
        log(
          'info',
          `notification ${notification.id} of channel ${channelId} not shown: no board on screen uses that channel`,
        );
      }, CHANNEL_WAIT_MS);
      waits.add(end);
    });
    return () => {
      stop();
      for (const end of [...waits]) end();
    };
  }, [bridge, sequencer, queue, sounds, log, still, why]);

  const snapshot = useSyncExternalStore(sequencer.subscribe, sequencer.getSnapshot);
  // Oldest first, so the prepared layer never moves in the DOM when it comes on screen (a moved
  // video would stop).
  const layers = [snapshot.current, snapshot.next].filter((slot): slot is Slot => slot !== null);

  if (off) return <ScreenOff />;
  return (
    <WebProvider web={state.web} bridge={bridge}>
      <div className="player">
        {!snapshot.current && waiting}
        {layers.map((slot) => (
          <ItemLayer
            key={slot.id}
            slot={slot}
            active={slot === snapshot.current}
            playing={cover === null}
            sequencer={sequencer}
            store={store}
            media={media}
            log={log}
            bridge={bridge}
            sync={shared && sync ? { clock: shared.clock, wall: sync.wall } : null}
          />
        ))}
        <NotificationArea queue={queue} />
      </div>
    </WebProvider>
  );
}

/**
 * The shared clock while the screen is in a sync group: sampled from the agent (shared-clock.ts)
 * from the moment it joins until it leaves; a test's own clock is taken as known at once.
 */
function useSharedClock(
  inGroup: boolean,
  bridge: WallboardBridge,
  given: SharedTime | undefined,
): { clock: SharedTime; onKnown: (listener: () => void) => () => void } | null {
  const [sampled] = useState(() => new SharedClock(() => bridge.serviceTime()));
  useEffect(() => {
    if (!inGroup || given) return;
    sampled.start();
    return () => sampled.stop();
  }, [inGroup, given, sampled]);
  return useMemo(() => {
    if (!inGroup) return null;
    if (given) return { clock: given, onKnown: () => () => undefined };
    return { clock: sampled, onKnown: (listener: () => void) => sampled.onKnown(listener) };
  }, [inGroup, given, sampled]);
}
