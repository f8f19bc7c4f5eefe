import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import type { Framing } from '../../../src/shared/web-content';
import { IFRAME_RETRY_MS, IframeWidget } from './iframe';
import { framed, listsProps } from './testing/lists-frame';
import { NO_WEB, WidgetWebContext, type WidgetWeb } from './web-context';

// Port 9 (discard) refuses at once: the frames load nothing, and nothing leaves the machine.
const PAGE = 'http://127.0.0.1:9/status?x=1';

/** A screen whose framing check answers from `framings` (else allowed), counting the questions. */
function screenWeb(framings: Map<string, Framing>): WidgetWeb & { asked: string[] } {
  const asked: string[] = [];
  return {
    ...NO_WEB,
    asked,
    framing: (url) => {
      asked.push(url);
      return Promise.resolve(framings.get(url) ?? { url, verdict: 'allowed', detail: '' });
    },
  };
}

const withWeb = (web: WidgetWeb, children: ReactNode) => (
  <WidgetWebContext.Provider value={web}>{children}</WidgetWebContext.Provider>
);

afterEach(() => {
  vi.useRealTimers();
});

describe('iframe widget', () => {
  it('frames a page that allows it, sandboxed and filling the widget', async () => {
    const web = screenWeb(new Map());
    const screen = await render(withWeb(web, <IframeWidget {...listsProps<'iframe'>({ url: PAGE })} />));
    await expect.element(screen.getByTitle('127.0.0.1:9')).toBeInTheDocument();
    const iframe = screen.container.querySelector('iframe');
    expect(iframe?.getAttribute('src')).toBe(PAGE);
    expect(iframe?.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
    expect(iframe?.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(iframe?.getAttribute('allow')).toBe('');
    expect(iframe?.getBoundingClientRect()).toMatchObject({ width: 400, height: 240 });
    expect(web.asked).toEqual([PAGE]);
  });

  it('says so when the page refuses to be framed, and loads nothing', async () => {
    const detail = '127.0.0.1:9 refuses to be shown inside another page (X-Frame-Options: DENY)';
    const web = screenWeb(new Map([[PAGE, { url: PAGE, verdict: 'refused', detail }]]));
    const screen = await render(withWeb(web, <IframeWidget {...listsProps<'iframe'>({ url: PAGE })} />));
    await expect
      .element(screen.getByText('This page does not allow being shown inside another page'))
      .toBeVisible();
    await expect.element(screen.getByText('127.0.0.1:9')).toBeVisible();
    expect(screen.getByRole('alert').element().getAttribute('title')).toBe(detail);
    expect(screen.container.querySelector('iframe')).toBeNull();
  });

  it('says so when the page cannot be reached, and asks again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const framings = new Map<string, Framing>([
      [
        PAGE,
        { url: PAGE, verdict: 'unreachable', detail: '127.0.0.1:9 cannot be reached (connection refused)' },
      ],
    ]);
    const web = screenWeb(framings);
    const screen = await render(withWeb(web, <IframeWidget {...listsProps<'iframe'>({ url: PAGE })} />));
    await expect.element(screen.getByText('This page cannot be reached from this screen')).toBeVisible();
    framings.delete(PAGE);
    await vi.advanceTimersByTimeAsync(IFRAME_RETRY_MS);
    await vi.waitFor(() => expect(screen.container.querySelector('iframe')).not.toBeNull());
    expect(web.asked).toEqual([PAGE, PAGE]);
  });

  it('shows through the frame, with the console’s default of trying the frame', async () => {
    const screen = await render(framed('iframe', { url: 'http://127.0.0.1:9/' }));
    await vi.waitFor(() =>
      expect(screen.container.querySelector('iframe')?.getAttribute('src')).toBe('http://127.0.0.1:9/'),
    );
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('iframe', { url: 'javascript:alert(1)' }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
    expect(screen.container.querySelector('iframe')).toBeNull();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('iframe', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
