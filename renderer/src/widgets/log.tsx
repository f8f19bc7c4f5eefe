import { useMemo } from 'react';
import type { WidgetProps } from './types';

const LINE_SPACING = 1.5;

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "14:05" in the screen's local time, from unix seconds. */
export function clockTime(seconds: number): string {
  return clock.format(new Date(seconds * 1000));
}

/**
 * Newest first. Feeds append, so without timestamps the last message is the newest; when every
 * message has a timestamp they decide (ties keep the feed's order).
 */
export function newestFirst<T extends { timestamp?: number }>(messages: readonly T[]): T[] {
  const reversed = [...messages].reverse();
  if (reversed.every((message) => message.timestamp !== undefined)) {
    reversed.sort((a, b) => (b.timestamp ?? 0) - (a.timestamp ?? 0));
  }
  return reversed;
}

/** Log lines, newest at the top, each with its time and colour; as many whole lines as fit. */
export function LogWidget({ data, width, height, fontSize, theme }: WidgetProps<'log'>) {
  const ordered = useMemo(() => newestFirst(data.messages), [data.messages]);
  const font = Math.max(8, Math.min(Math.round(fontSize * 0.9), Math.floor(height / LINE_SPACING)));
  const lineHeight = Math.round(font * LINE_SPACING);
  const shown = ordered.slice(0, Math.max(0, Math.floor(height / lineHeight)));

  return (
    <ol className="lists-widget lists-log" style={{ width, height, fontSize: font, color: theme.foreground }}>
      {shown.map((message, index) => (
        <li key={index} style={{ height: lineHeight, lineHeight: `${lineHeight}px` }}>
          {message.timestamp !== undefined && (
            <time
              className="lists-log-time"
              dateTime={new Date(message.timestamp * 1000).toISOString()}
              style={{ color: theme.muted }}
            >
              {clockTime(message.timestamp)}
            </time>
          )}
          <span className="lists-log-text" style={{ color: message.color }}>
            {message.text}
          </span>
        </li>
      ))}
    </ol>
  );
}
