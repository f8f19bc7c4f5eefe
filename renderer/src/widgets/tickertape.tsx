import { useEffect, useState, useSyncExternalStore } from 'react';
import type { WidgetProps } from './types';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
/** Scrolling speed in font heights per second: readable from across a room. */
const SPEED_EMS = 5;
/** Average glyph width as a share of the font size, to size the loop without measuring. */
const GLYPH_EMS = 0.55;
const SEPARATOR = '   •   ';

function subscribeReducedMotion(listener: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribeReducedMotion, () => window.matchMedia(REDUCED_MOTION).matches);
}

/** Seconds each message stays up when messages take turns: longer ones stay longer. */
function dwellSeconds(message: string): number {
  return Math.min(20, Math.max(5, message.length / 12));
}

function CyclingMessages({ messages, font }: { messages: string[]; font: number }) {
  const [turn, setTurn] = useState(0);
  const index = messages.length > 0 ? turn % messages.length : 0;
  const message = messages[index] ?? '';
  useEffect(() => {
    if (messages.length < 2) return;
    const timer = setTimeout(() => setTurn((current) => current + 1), dwellSeconds(message) * 1000);
    return () => clearTimeout(timer);
  }, [messages.length, message, turn]);
  return (
    <div className="lists-ticker-still" style={{ fontSize: font }} aria-live="off">
      {message}
    </div>
  );
}

/**
 * Messages running right to left on one line, looping. The motion is a CSS transform animation
 * (composited, no layout per frame); its duration follows the text length so the speed stays
 * the same whatever the messages. With reduced motion the messages take turns instead.
 */
export function TickertapeWidget({ data, width, height, fontSize, theme }: WidgetProps<'tickertape'>) {
  const reduced = usePrefersReducedMotion();
  const messages = data.messages.filter((message) => message.trim() !== '');
  const font = Math.max(8, Math.min(Math.round(fontSize * 1.2), Math.floor(height * 0.7)));
  const line = messages.join(SEPARATOR);
  // The strip runs from the right edge until its end has left: the box width plus the text.
  const travel = width + line.length * font * GLYPH_EMS;
  const duration = travel / (font * SPEED_EMS);

  return (
    <div className="lists-widget lists-tickertape" style={{ width, height, color: theme.foreground }}>
      {reduced ? (
        <CyclingMessages messages={messages} font={font} />
      ) : (
        <div
          className="lists-ticker-strip"
          style={{ fontSize: font, paddingLeft: width, animationDuration: `${duration.toFixed(2)}s` }}
        >
          {messages.map((message, index) => (
            <span key={index} className="lists-ticker-message">
              {index > 0 && (
                <span className="lists-ticker-separator" style={{ color: theme.accent }} aria-hidden="true">
                  •
                </span>
              )}
              {message}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
