import { useEffect, useState } from 'react';
import type { Framing } from '../../../src/shared/web-content';
import { Icon } from '../icons/icon';
import type { WidgetProps } from './types';
import { useWidgetWeb } from './web-context';

/** An unreachable page is asked about again this often while its face is up. */
export const IFRAME_RETRY_MS = 30_000;

/**
 * What a page may do in the player's frames (this widget's, and a full-screen web item's where the
 * shell does not draw it): it keeps its own origin (cross-origin to the player, so
 * never ours) and may run scripts and send forms; it may not navigate the board, open popups or
 * windows, download, or ask for a permission (`allow=""`).
 */
export const IFRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * A web page inside the board, in a sandboxed frame, once the screen has found that the page
 * allows being framed (useWidgetWeb: the agent reads its headers). A page that refuses, or that
 * cannot be reached (asked again every IFRAME_RETRY_MS), gets a face saying so.
 */
export function IframeWidget({ data, width, height, fontSize, theme }: WidgetProps<'iframe'>) {
  const web = useWidgetWeb();
  const { url } = data;
  const [framing, setFraming] = useState<Framing | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    web.framing(url).then(
      (answer) => live && setFraming(answer),
      (error: unknown) =>
        live &&
        setFraming({ url, verdict: 'unreachable', detail: `could not be checked (${String(error)})` }),
    );
    return () => {
      live = false;
    };
  }, [web, url, attempt]);

  const verdict = framing?.url === url ? framing.verdict : null;
  useEffect(() => {
    if (verdict !== 'unreachable') return;
    const timer = setTimeout(() => setAttempt((n) => n + 1), IFRAME_RETRY_MS);
    return () => clearTimeout(timer);
  }, [verdict, attempt]);

  if (verdict === 'allowed') {
    return (
      <iframe
        src={url}
        title={hostOf(url)}
        sandbox={IFRAME_SANDBOX}
        referrerPolicy="no-referrer"
        allow=""
        style={{ display: 'block', width, height, border: 0, background: '#fff' }}
      />
    );
  }
  const font = Math.max(8, Math.round(Math.min(fontSize, height / 5, width / 16)));
  const message =
    verdict === 'refused'
      ? 'This page does not allow being shown inside another page'
      : verdict === 'unreachable'
        ? 'This page cannot be reached from this screen'
        : null;
  return (
    <div
      className="lists-widget lists-iframe"
      role={message ? 'alert' : undefined}
      title={framing?.detail}
      style={{ width, height, fontSize: font, color: theme.muted }}
    >
      <Icon name={verdict === 'unreachable' ? 'link-slash' : 'globe'} size="2em" />
      {message && <span className="lists-iframe-message">{message}</span>}
      <span className="lists-iframe-host" style={{ color: theme.foreground }}>
        {hostOf(url)}
      </span>
    </div>
  );
}
