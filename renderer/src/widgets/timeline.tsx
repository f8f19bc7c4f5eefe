import { useMemo, useSyncExternalStore } from 'react';
import { Icon } from '../icons/icon';
import { newestFirst } from './log';
import type { WidgetProps } from './types';

/** One timer for every widget that shows "n min ago", not one per widget. */
const minuteListeners = new Set<() => void>();
let minuteTimer: ReturnType<typeof setInterval> | undefined;
let minuteNow = Date.now();

function subscribeMinutes(listener: () => void): () => void {
  minuteListeners.add(listener);
  if (minuteTimer === undefined) {
    minuteNow = Date.now();
    minuteTimer = setInterval(() => {
      minuteNow = Date.now();
      for (const notify of minuteListeners) notify();
    }, 60_000);
  }
  return () => {
    minuteListeners.delete(listener);
    if (minuteListeners.size === 0 && minuteTimer !== undefined) {
      clearInterval(minuteTimer);
      minuteTimer = undefined;
    }
  };
}

function minuteSnapshot(): number {
  // While no widget listens the timer is off: catch up on the first look after a pause.
  if (minuteTimer === undefined && Date.now() - minuteNow >= 60_000) minuteNow = Date.now();
  return minuteNow;
}

/** The current time in milliseconds, refreshed once a minute. */
export function useMinuteClock(): number {
  return useSyncExternalStore(subscribeMinutes, minuteSnapshot);
}

/** "just now", "5 min ago", "3 h ago", "2 d ago" from unix seconds. */
export function relativeTime(seconds: number, nowMs: number): string {
  const minutes = Math.floor((nowMs / 1000 - seconds) / 60);
  // A clock ahead of ours reads as now rather than as the future.
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

// Padding, the sender line and two lines of text, in font heights.
const ITEM_LINES = 4.3;

/** Messages with who sent them and how long ago, newest first; as many whole messages as fit. */
export function TimelineWidget({ data, width, height, fontSize, theme, media }: WidgetProps<'timeline'>) {
  const now = useMinuteClock();
  const ordered = useMemo(() => newestFirst(data.messages), [data.messages]);
  const font = Math.max(8, Math.min(Math.round(fontSize * 0.85), Math.floor(height / ITEM_LINES)));
  const itemHeight = Math.round(font * ITEM_LINES);
  const shown = ordered.slice(0, Math.max(1, Math.floor(height / itemHeight)));
  const avatar = Math.round(font * 2.2);

  return (
    <ol
      className="lists-widget lists-timeline"
      style={{ width, height, fontSize: font, color: theme.foreground }}
    >
      {shown.map((message, index) => {
        const icon = message.icon_url ? media(message.icon_url) : undefined;
        return (
          <li key={index} style={{ height: itemHeight }}>
            <span
              className="lists-timeline-avatar"
              style={{ width: avatar, height: avatar, color: theme.muted }}
            >
              {icon ? <img src={icon} alt="" /> : <Icon name="circle-user" size={avatar} />}
            </span>
            <div className="lists-timeline-body">
              <div className="lists-timeline-head">
                {message.from && <strong className="lists-timeline-from">{message.from}</strong>}
                {message.timestamp !== undefined && (
                  <time
                    dateTime={new Date(message.timestamp * 1000).toISOString()}
                    style={{ color: theme.muted }}
                  >
                    {relativeTime(message.timestamp, now)}
                  </time>
                )}
              </div>
              <p className="lists-timeline-text">{message.text}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
