import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import type { BoardExport } from '../../../src/shared/board-export';
import type { MetricsData } from '../../../src/shared/metrics';
import { THEMES } from '../../../src/shared/theme';
import type { CustomCode } from '../../../src/shared/web-content';
import { WidgetFrame } from '../board/widget-frame';
import { FlowStore } from '../store/flow-store';
import {
  CUSTOM_PING_MS,
  CUSTOM_RESTART_DELAYS_MS,
  CUSTOM_SANDBOX,
  CustomWidget,
  customFrameUrl,
} from './custom';
import { listsProps } from './testing/lists-frame';
import { NO_WEB, WidgetWebContext } from './web-context';

/** What the code posts to its parent (the test's page) so the test can see inside the frame. */
interface Echo {
  echo: unknown;
}
const echoes: unknown[] = [];
const onEcho = (event: MessageEvent) => {
  const message = event.data as Partial<Echo> | null;
  if (message && typeof message === 'object' && 'echo' in message) echoes.push(message.echo);
};
window.addEventListener('message', onEcho);
afterEach(() => {
  echoes.length = 0;
  vi.useRealTimers();
});
/** Frames load their page first: more than vi.waitFor's default second on a busy machine. */
const LOADED = { timeout: 5000 };

const code = (script: string, html = '<h1 id="v"></h1>', css = 'h1 { color: tomato; }'): CustomCode => ({
  html,
  css,
  script,
});

/** Code that writes the data's value in its page and tells the test what its page reads. */
const DRAWS_VALUE = code(`
  wallboard.onData((data) => {
    document.getElementById('v').textContent = String(data.value);
    const { width, height } = wallboard.size;
    parent.postMessage({ echo: { text: document.getElementById('v').textContent, color: getComputedStyle(document.getElementById('v')).color, width, height } }, '*');
  });
`);

const withNetwork = (customNetwork: boolean, children: ReactNode) => (
  <WidgetWebContext.Provider value={{ ...NO_WEB, customNetwork }}>{children}</WidgetWebContext.Provider>
);

const widgetOf = (tag: string, variant: 'custom' | 'value', column: number, customCode: CustomCode | null) =>
  ({
    flow: { tag, data: {}, errored: false },
    variant,
    column,
    row: 0,
    width: 4,
    height: 3,
    in_board_index: column,
    background: 'default',
    code: customCode,
  }) satisfies BoardExport['widgets'][number];

/** A custom widget with `customCode` and a value widget side by side, as a board draws them. */
async function board(customCode: CustomCode, data: MetricsData = { value: 1 }) {
  const store = new FlowStore();
  store.set('custom', data);
  store.set('number', { value: 100 });
  const problems: string[] = [];
  const frame = (tag: string, variant: 'custom' | 'value', left: number) => (
    <WidgetFrame
      widget={widgetOf(tag, variant, left, variant === 'custom' ? customCode : null)}
      box={{ left, top: 0, width: 300, height: 200 }}
      padding={8}
      theme={THEMES.dark}
      fontSize={20}
      titleFontSize={18}
      widgetColor={null}
      titleColor={null}
      store={store}
      media={() => undefined}
      onProblem={(message) => problems.push(message)}
    />
  );
  const screen = await render(
    <div style={{ position: 'relative', width: 620, height: 200 }}>
      {frame('custom', 'custom', 0)}
      {frame('number', 'value', 310)}
    </div>,
  );
  return { screen, store, problems };
}

describe('custom widget', () => {
  it('runs its code in a sandboxed frame of its own page, which draws the data', async () => {
    const screen = await render(
      <CustomWidget
        {...listsProps<'custom'>({ value: 42 }, { width: 320, height: 180 })}
        code={DRAWS_VALUE}
      />,
    );
    await vi.waitFor(
      () => expect(echoes).toContainEqual({ text: '42', color: 'rgb(255, 99, 71)', width: 320, height: 180 }),
      LOADED,
    );
    const iframe = screen.container.querySelector('iframe');
    expect(iframe?.getAttribute('sandbox')).toBe(CUSTOM_SANDBOX);
    expect(iframe?.getAttribute('src')).toBe(customFrameUrl(false));
    expect(iframe?.getBoundingClientRect()).toMatchObject({ width: 320, height: 180 });
    // An opaque origin: the frame cannot reach into the player's page.
    expect(() => iframe?.contentWindow?.document).toThrow();
  });

  it("gives the code the board's look as CSS variables", async () => {
    const styled = code(
      "wallboard.onData(() => parent.postMessage({ echo: [getComputedStyle(document.body).color, getComputedStyle(document.getElementById('v')).fontSize] }, '*'));",
      '<h1 id="v"></h1>',
      'h1 { font-size: var(--wallboard-font-size); }',
    );
    await render(<CustomWidget {...listsProps<'custom'>({ value: 1 }, { fontSize: 24 })} code={styled} />);
    // The dark theme's foreground (#e6edf3) by default, and the board's font size.
    await vi.waitFor(() => expect(echoes).toContainEqual(['rgb(230, 237, 243)', '24px']), LOADED);
  });

  it('gives the code every update of the data, in the same frame', async () => {
    const screen = await render(<CustomWidget {...listsProps<'custom'>({ value: 1 })} code={DRAWS_VALUE} />);
    await vi.waitFor(() => expect(echoes).toContainEqual(expect.objectContaining({ text: '1' })), LOADED);
    const iframe = screen.container.querySelector('iframe');
    await screen.rerender(<CustomWidget {...listsProps<'custom'>({ value: 2 })} code={DRAWS_VALUE} />);
    await vi.waitFor(() => expect(echoes).toContainEqual(expect.objectContaining({ text: '2' })), LOADED);
    expect(screen.container.querySelector('iframe')).toBe(iframe);
  });

  it('says so when it has no code yet', async () => {
    const screen = await render(<CustomWidget {...listsProps<'custom'>({ value: 1 })} code={null} />);
    await expect.element(screen.getByText('This custom widget has no code yet')).toBeVisible();
    expect(screen.container.querySelector('iframe')).toBeNull();
  });

  it('shows the failure face and logs the error its code throws; the board draws on', async () => {
    const { screen, store, problems } = await board(
      code(
        "parent.postMessage({ echo: 'started' }, '*'); wallboard.onData(() => { throw new Error('bad data'); });",
      ),
    );
    await expect.element(screen.getByText('This widget could not draw its data'), LOADED).toBeVisible();
    expect(problems).toEqual([
      expect.stringMatching(/^widget custom \(custom\) failed: its code failed: Error: bad data/),
    ]);
    store.set('number', { value: 101 });
    await expect.element(screen.getByText('101')).toBeVisible();
  });

  it(
    'replaces a frame that stops answering while the rest of the board updates',
    { timeout: 30_000 },
    async () => {
      const { screen, store } = await board(
        // The message leaves the frame only once its task ends: the loop starts in the next one.
        code(
          "wallboard.onData(() => { parent.postMessage({ echo: 'looping' }, '*'); setTimeout(() => { while (true) {} }, 50); });",
        ),
      );
      await vi.waitFor(() => expect(echoes).toContain('looping'), LOADED);
      const hung = screen.container.querySelector('iframe');
      expect(hung).not.toBeNull();
      // The frame is busy for good, in a process of its own: the board still updates.
      store.set('number', { value: 555 });
      await expect.element(screen.getByText('555')).toBeVisible();
      expect(screen.container.querySelector('iframe')).toBe(hung);
      await expect
        .element(screen.getByText('This custom widget stopped responding; restarted'), { timeout: 8000 })
        .toBeVisible();
      expect(screen.container.querySelector('iframe')).toBeNull();
      store.set('number', { value: 556 });
      await expect.element(screen.getByText('556')).toBeVisible();
      // After the pause, a new frame runs the code again.
      await vi.waitFor(() => expect(echoes.filter((echo) => echo === 'looping')).toHaveLength(2), {
        timeout: 8000,
      });
      const restarted = screen.container.querySelector('iframe');
      expect(restarted).not.toBeNull();
      expect(restarted).not.toBe(hung);
    },
  );

  it('restarts a frame that does not answer after 2, 10 and 30 s, then gives up', async () => {
    // The player's clock is fake; the frames' hang is real (each new one hangs again).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const screen = await render(
      <CustomWidget {...listsProps<'custom'>({ value: 1 })} code={code('while (true) {}')} />,
    );
    const text = () => screen.container.textContent;
    const frame = () => screen.container.querySelector('iframe');
    /** Until React has drawn what `check` wants, by real frames (vi.waitFor would move the fake clock). */
    const drawn = async (check: () => boolean) => {
      for (let frames = 0; frames < 120 && !check(); frames++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      expect(check()).toBe(true);
    };
    /** Ping by ping: a frame may answer the first ones, before its code has started. */
    const untilHung = async (face: string) => {
      for (let ping = 0; ping < 10 && text() !== face; ping++) {
        await vi.advanceTimersByTimeAsync(CUSTOM_PING_MS);
        await drawn(() => true);
      }
      await drawn(() => text() === face);
      expect(frame()).toBeNull();
    };
    const frames = new Set<Element>();
    for (const delay of CUSTOM_RESTART_DELAYS_MS) {
      frames.add(frame()!);
      await untilHung('This custom widget stopped responding; restarted');
      await vi.advanceTimersByTimeAsync(delay - 1);
      await drawn(() => true);
      expect(frame()).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      await drawn(() => frame() !== null);
    }
    frames.add(frame()!);
    expect(frames.size).toBe(4);
    await untilHung('This custom widget stopped responding');
    await vi.advanceTimersByTimeAsync(60_000);
    await drawn(() => true);
    expect(frame()).toBeNull();
  });

  /** Code that fetches over https then http, and echoes the first request its policy blocked. */
  const FETCHES = code(`
    document.addEventListener('securitypolicyviolation', (event) => {
      parent.postMessage({ echo: { blocked: event.blockedURI, directive: event.effectiveDirective } }, '*');
    });
    (async () => {
      await fetch('https://127.0.0.1:9/secure').catch(() => undefined);
      await fetch('http://127.0.0.1:9/plain').catch(() => undefined);
    })();
  `);

  it('has no network: its policy blocks every request', async () => {
    await render(withNetwork(false, <CustomWidget {...listsProps<'custom'>({ value: 1 })} code={FETCHES} />));
    await vi.waitFor(() => expect(echoes.length).toBeGreaterThan(0), LOADED);
    // Violations are reported in the order of the requests: the first one (https) was refused.
    expect(echoes[0]).toEqual({ blocked: 'https://127.0.0.1:9/secure', directive: 'connect-src' });
  });

  it('reaches https only, on a service that allows custom widgets the network', async () => {
    const screen = await render(
      withNetwork(true, <CustomWidget {...listsProps<'custom'>({ value: 1 })} code={FETCHES} />),
    );
    expect(screen.container.querySelector('iframe')?.getAttribute('src')).toBe(customFrameUrl(true));
    await vi.waitFor(() => expect(echoes.length).toBeGreaterThan(0), LOADED);
    expect(echoes[0]).toEqual({ blocked: 'http://127.0.0.1:9/plain', directive: 'connect-src' });
  });
});
