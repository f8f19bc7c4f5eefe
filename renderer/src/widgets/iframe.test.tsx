import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { IframeWidget } from './iframe';
import { framed, listsProps } from './testing/lists-frame';

describe('iframe widget', () => {
  it('says web pages are not shown, names the site, and loads nothing', async () => {
    const screen = await render(
      <IframeWidget {...listsProps<'iframe'>({ url: 'https://status.example.com/page?x=1' })} />,
    );
    await expect.element(screen.getByText('Web pages are not shown on this screen')).toBeVisible();
    await expect.element(screen.getByText('status.example.com')).toBeVisible();
    expect(screen.container.querySelector('iframe')).toBeNull();
    expect(screen.container.innerHTML).not.toContain('page?x=1');
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('iframe', { url: 'http://intranet.local/' }));
    await expect.element(screen.getByText('intranet.local')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('iframe', { url: 'javascript:alert(1)' }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('iframe', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
