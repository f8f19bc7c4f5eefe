import { useEffect, useMemo, useRef, useState } from 'react';
import { CUSTOM_FRAME_PAGES } from '../../../src/shared/custom-frame';
import type { ThemeTokens } from '../../../src/shared/theme';
import type { CustomCode } from '../../../src/shared/web-content';
import { Icon } from '../icons/icon';
import type { WidgetProps } from './types';
import { useWidgetWeb } from './web-context';
import './custom.css';

/** The frame is asked whether it still answers this often... */
export const CUSTOM_PING_MS = 1000;
/** ...and is taken for hung once this many questions in a row went unanswered (~3 s). */
export const CUSTOM_HUNG_PINGS = 3;
/** How long a hung frame stays down before each new start; after the last one it stays down. */
export const CUSTOM_RESTART_DELAYS_MS = [2000, 10_000, 30_000] as const;

/** Where the app's files are (Vite's `base`): "./" for the player, "/console/" for the console. */
const BASE_URL = (import.meta as unknown as { env: { BASE_URL: string } }).env.BASE_URL;

/** The host page the code runs in: one whose policy lets it reach the network over https, or none. */
export function customFrameUrl(network: boolean): string {
  const page = network ? CUSTOM_FRAME_PAGES.network : CUSTOM_FRAME_PAGES.sealed;
  return new URL(`${BASE_URL}${page}`, document.baseURI).href;
}

/**
 * No allow-same-origin: the code gets an opaque origin, so it can reach neither the player nor
 * its storage and cookies; Chromium also runs such a frame in a process of its own
 * (IsolateSandboxedIframes), so code that never returns freezes its frame only.
 */
export const CUSTOM_SANDBOX = 'allow-scripts';

type Phase = 'running' | 'restarting' | 'given-up';

interface FrameMessage {
  wallboard?: unknown;
  seq?: unknown;
  message?: unknown;
}

function Face({ text, fontSize }: { text: string; fontSize: number }) {
  return (
    <div className="custom-widget-face" role="alert" style={{ fontSize }}>
      <Icon name="code" size="1.6em" />
      <span>{text}</span>
    </div>
  );
}

/**
 * A custom widget: its own HTML, CSS and JavaScript (the widget's `code`) in a sandboxed frame,
 * given the flow's data on every update (docs/player.md, "Custom widgets"). An error the code
 * does not catch is thrown here, so the frame's boundary shows the widget's failure face and logs
 * it; a frame that stops answering is replaced, a few times, then left with a face.
 */
export function CustomWidget({ data, width, height, code, fontSize, theme }: WidgetProps<'custom'>) {
  const key = useMemo(() => JSON.stringify(code ?? null), [code]);
  const font = Math.max(8, Math.round(Math.min(fontSize, height / 5, width / 16)));
  if (!code || (!code.html.trim() && !code.script.trim())) {
    return (
      <div style={{ width, height }}>
        <Face text="This custom widget has no code yet" fontSize={font} />
      </div>
    );
  }
  // New code starts afresh: a new frame, and the restarts counted again.
  return (
    <Sandbox
      key={key}
      code={code}
      data={data}
      width={width}
      height={height}
      font={font}
      variables={styleVariables(theme, fontSize)}
    />
  );
}

/** The board's look, for the code's CSS: `var(--wallboard-foreground)` and the like. */
export function styleVariables(theme: ThemeTokens, fontSize: number): Record<string, string> {
  const variables: Record<string, string> = { '--wallboard-font-size': `${fontSize}px` };
  for (const [name, value] of Object.entries(theme)) {
    variables[`--wallboard-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`] = value;
  }
  return variables;
}

interface SandboxProps {
  code: CustomCode;
  data: unknown;
  width: number;
  height: number;
  font: number;
  variables: Record<string, string>;
}

function Sandbox({ code, data, width, height, font, variables }: SandboxProps) {
  const { customNetwork } = useWidgetWeb();
  const frame = useRef<HTMLIFrameElement>(null);
  const [generation, setGeneration] = useState(0);
  const [phase, setPhase] = useState<Phase>('running');
  const [failure, setFailure] = useState<string | null>(null);
  // What the frame is told when it is ready, and after: kept current without restarting it.
  const latest = useRef({ code, data, width, height, variables });
  useEffect(() => {
    latest.current = { code, data, width, height, variables };
  });
  const style = JSON.stringify(variables);
  const ready = useRef(false);
  const unanswered = useRef(0);

  const post = (message: object) => frame.current?.contentWindow?.postMessage(message, '*');

  // The frame's messages: from this frame only (its origin is "null", so its window tells it apart).
  useEffect(() => {
    const onMessage = (event: MessageEvent<FrameMessage>) => {
      const sandboxed = frame.current?.contentWindow;
      if (!sandboxed || event.source !== sandboxed) return;
      const message = event.data;
      if (typeof message !== 'object' || message === null) return;
      if (message.wallboard === 'ready') {
        ready.current = true;
        const { code, data, width, height, variables } = latest.current;
        sandboxed.postMessage({ wallboard: 'style', variables }, '*');
        sandboxed.postMessage({ wallboard: 'code', ...code, width, height }, '*');
        sandboxed.postMessage({ wallboard: 'data', data }, '*');
      } else if (message.wallboard === 'pong') {
        unanswered.current = 0;
      } else if (message.wallboard === 'error') {
        setFailure(String(message.message).slice(0, 500));
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (ready.current) post({ wallboard: 'data', data });
  }, [data]);

  useEffect(() => {
    if (ready.current) post({ wallboard: 'size', width, height });
  }, [width, height]);

  useEffect(() => {
    if (ready.current) post({ wallboard: 'style', variables: JSON.parse(style) as unknown });
  }, [style]);

  // The watchdog: counted from the frame's start, so a page that never loads is hung too.
  useEffect(() => {
    if (phase !== 'running') return;
    unanswered.current = 0;
    let seq = 0;
    const timer = setInterval(() => {
      if (unanswered.current >= CUSTOM_HUNG_PINGS) {
        clearInterval(timer);
        setPhase('restarting');
        return;
      }
      unanswered.current += 1;
      seq += 1;
      post({ wallboard: 'ping', seq });
    }, CUSTOM_PING_MS);
    return () => clearInterval(timer);
  }, [phase, generation]);

  const restarts = useRef(0);
  useEffect(() => {
    if (phase !== 'restarting') return;
    const delay = CUSTOM_RESTART_DELAYS_MS[restarts.current];
    if (delay === undefined) {
      setPhase('given-up');
      return;
    }
    const timer = setTimeout(() => {
      restarts.current += 1;
      ready.current = false;
      setGeneration((n) => n + 1);
      setPhase('running');
    }, delay);
    return () => clearTimeout(timer);
  }, [phase]);

  if (failure !== null) throw new Error(`its code failed: ${failure}`);
  if (phase === 'given-up') {
    return (
      <div style={{ width, height }}>
        <Face text="This custom widget stopped responding" fontSize={font} />
      </div>
    );
  }
  if (phase === 'restarting') {
    return (
      <div style={{ width, height }}>
        <Face text="This custom widget stopped responding; restarted" fontSize={font} />
      </div>
    );
  }
  return (
    <iframe
      key={generation}
      ref={frame}
      src={customFrameUrl(customNetwork)}
      title="Custom widget"
      sandbox={CUSTOM_SANDBOX}
      referrerPolicy="no-referrer"
      allow=""
      className="custom-widget-frame"
      style={{ width, height }}
    />
  );
}
