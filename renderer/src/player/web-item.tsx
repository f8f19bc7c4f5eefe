import { useEffect, useState } from 'react';
import type { WallboardBridge } from '../../../src/shared/bridge';
import type { Framing } from '../../../src/shared/web-content';
import { IFRAME_SANDBOX } from '../widgets/iframe';
import type { ItemView } from './resolve-item';
import './web-item.css';

type WebView = Extract<ItemView, { kind: 'web' }>;

/** An unreachable page is asked again this often while its face is up. */
export const WEB_RETRY_MS = 30_000;

/** Per bridge: whether the shell draws pages itself (it does not change while the page lives). */
const hostDraws = new WeakMap<WallboardBridge, boolean>();
/** Per bridge: the item whose page the shell shows, so one leaving never takes down its successor's. */
const nativeOwner = new WeakMap<WallboardBridge, symbol>();

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The why of a verdict's detail, which names the host the face names already: "(X-Frame-Options: DENY)". */
function reasonOf(detail: string): string {
  const open = detail.indexOf('(');
  return open >= 0 && detail.endsWith(')') ? detail.slice(open + 1, -1) : detail;
}

interface WebItemProps {
  view: WebView;
  /** On screen; otherwise prepared behind the item on screen. */
  active: boolean;
  bridge: WallboardBridge;
  onReady: () => void;
}

/**
 * A full-screen web page. On screen, the shell is asked to draw it in its own isolated view
 * (Electron); if it does, nothing is drawn here. Otherwise the page is framed when it allows it,
 * and a face says why when it does not or cannot be reached (and the operator hears of it).
 */
export function WebItem({ view, active, bridge, onReady }: WebItemProps) {
  const { url, reloadSeconds } = view;
  const [framing, setFraming] = useState<Framing | null>(null);
  /** The shell's answer while on screen: null until it has given one. */
  const [native, setNative] = useState<boolean | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [reloads, setReloads] = useState(0);
  const drawsKnown = hostDraws.get(bridge);

  // Whether the page can be framed, asked while prepared so the item is ready when its turn comes.
  useEffect(() => {
    if (drawsKnown === true) return;
    let live = true;
    bridge.checkFraming({ url }).then(
      (answer) => live && setFraming(answer),
      (error: unknown) =>
        live &&
        setFraming({
          url,
          verdict: 'unreachable',
          detail: `the screen could not check ${hostOf(url)} (${String(error)})`,
        }),
    );
    return () => {
      live = false;
    };
  }, [bridge, url, attempt, drawsKnown]);

  useEffect(() => {
    if (drawsKnown === true || framing) onReady();
  }, [drawsKnown, framing, onReady]);

  // On screen: the shell draws it if it can; taken down when the item leaves.
  useEffect(() => {
    if (!active || hostDraws.get(bridge) === false) return;
    const me = Symbol(url);
    nativeOwner.set(bridge, me);
    let live = true;
    bridge.showWebPage({ url, reload_seconds: reloadSeconds }).then(
      ({ shown }) => {
        hostDraws.set(bridge, shown);
        if (live) setNative(shown);
      },
      () => live && setNative(false),
    );
    return () => {
      live = false;
      if (nativeOwner.get(bridge) !== me) return;
      nativeOwner.delete(bridge);
      bridge.showWebPage({ url: null, reload_seconds: null }).catch(() => undefined);
    };
  }, [active, bridge, url, reloadSeconds]);

  const framed = native === false || (native === null && drawsKnown === false);
  const verdict = framed ? framing?.verdict : undefined;

  // A face on screen is a failure the operator should see (heartbeats carry it).
  useEffect(() => {
    if (!active || !framing || (verdict !== 'refused' && verdict !== 'unreachable')) return;
    bridge.reportFailure({ item: `web:${url}`.slice(0, 2048), reason: framing.detail });
  }, [active, bridge, url, verdict, framing]);

  // Unreachable: asked again while the face is up (the agent keeps that verdict only briefly).
  useEffect(() => {
    if (verdict !== 'unreachable') return;
    const timer = setTimeout(() => setAttempt((n) => n + 1), WEB_RETRY_MS);
    return () => clearTimeout(timer);
  }, [verdict, attempt]);

  useEffect(() => {
    if (verdict !== 'allowed' || reloadSeconds === null) return;
    const timer = setTimeout(() => setReloads((n) => n + 1), reloadSeconds * 1000);
    return () => clearTimeout(timer);
  }, [verdict, reloadSeconds, reloads]);

  if (native === true) return <div className="player-web-native" data-testid="web-native" />;
  if (verdict === 'allowed') {
    return (
      <iframe
        key={reloads}
        className="player-web-frame"
        src={url}
        title={hostOf(url)}
        sandbox={IFRAME_SANDBOX}
        referrerPolicy="no-referrer"
        allow=""
        data-reloads={reloads}
      />
    );
  }
  if (verdict === 'refused') {
    return (
      <div className="player-web-face" role="alert">
        <p className="player-web-face-title">{hostOf(url)} does not allow being shown inside another page</p>
        <p className="player-web-face-detail">{reasonOf(framing?.detail ?? '')}</p>
        <p className="player-web-face-hint">The Wallboard app for Electron shows such pages full-screen.</p>
      </div>
    );
  }
  if (verdict === 'unreachable') {
    return (
      <div className="player-web-face" role="alert">
        <p className="player-web-face-title">{hostOf(url)} cannot be reached from this screen</p>
        <p className="player-web-face-detail">{reasonOf(framing?.detail ?? '')}</p>
        <p className="player-web-face-hint">Trying again every {WEB_RETRY_MS / 1000} seconds.</p>
      </div>
    );
  }
  return null;
}
