import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { ImageWidget } from './image';
import { framed, listsProps } from './testing/lists-frame';

const REMOTE = 'https://images.example.com/office/plan.png';
const LOCAL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const cached = (url: string) => (url === REMOTE ? LOCAL : undefined);

describe('image widget', () => {
  it('shows the cached copy, fitted by default, and never the remote address', async () => {
    const screen = await render(<ImageWidget {...listsProps<'image'>({ url: REMOTE }, { media: cached })} />);
    const image = screen.container.querySelector('img')!;
    expect(image.getAttribute('src')).toBe(LOCAL);
    expect(image.style.objectFit).toBe('contain');
    await expect.poll(() => image.complete && image.naturalWidth).toBe(1);
    expect(image.getBoundingClientRect().width).toBe(400);
    expect(image.getBoundingClientRect().height).toBe(240);
    expect(screen.container.innerHTML).not.toContain('images.example.com');
  });

  it.each([
    ['fill', 'cover'],
    ['stretch', 'fill'],
    ['center', 'none'],
  ] as const)('maps mode %s to object-fit %s', async (mode, fit) => {
    const screen = await render(
      <ImageWidget {...listsProps<'image'>({ url: REMOTE, mode }, { media: cached })} />,
    );
    expect(screen.container.querySelector('img')!.style.objectFit).toBe(fit);
  });

  it('shows a quiet placeholder while the image is not cached', async () => {
    const screen = await render(<ImageWidget {...listsProps<'image'>({ url: REMOTE })} />);
    await expect.element(screen.getByRole('img', { name: 'Image not available yet' })).toBeVisible();
    expect(screen.container.querySelector('img')).toBeNull();
    expect(screen.container.querySelector('svg[data-icon="image"]')).not.toBeNull();
    expect(screen.container.innerHTML).not.toContain('images.example.com');
  });

  it('falls back to the placeholder when the cached file does not load', async () => {
    const broken = () => 'data:image/png;base64,AAAA';
    const screen = await render(<ImageWidget {...listsProps<'image'>({ url: REMOTE }, { media: broken })} />);
    await expect.element(screen.getByRole('img', { name: 'Image not available yet' })).toBeVisible();
  });

  it('shows the cached copy through the frame', async () => {
    const screen = await render(framed('image', { url: REMOTE, title: 'Plan' }, { media: cached }));
    await expect.element(screen.getByText('Plan')).toBeVisible();
    expect(screen.container.querySelector('img')!.getAttribute('src')).toBe(LOCAL);
    expect(screen.container.innerHTML).not.toContain('images.example.com');
  });

  it("draws an inline data: image as it is, as the original product's exports carry a logo", async () => {
    const screen = await render(framed('image', { url: LOCAL }));
    const image = screen.container.querySelector('img')!;
    expect(image.getAttribute('src')).toBe(LOCAL);
    await expect.poll(() => image.complete && image.naturalWidth).toBe(1);
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('image', { url: 'file:///etc/passwd' }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('image', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
