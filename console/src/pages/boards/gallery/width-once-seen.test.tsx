import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { useWidthOnceSeen } from './width-once-seen';

function Box({ name, width }: { name: string; width: number }) {
  const [ref, seen] = useWidthOnceSeen<HTMLDivElement>();
  return (
    <div ref={ref} data-testid={name} style={{ width, height: 40 }}>
      {seen}
    </div>
  );
}

/** One box in view, and one far below it, past the margin the gallery draws ahead. */
async function gallery(farWidth = 300) {
  const screen = await render(
    <div>
      <Box name="near" width={120} />
      <div style={{ height: 5000 }} />
      <Box name="far" width={farWidth} />
    </div>,
  );
  const rerender = (width: number) =>
    screen.rerender(
      <div>
        <Box name="near" width={120} />
        <div style={{ height: 5000 }} />
        <Box name="far" width={width} />
      </div>,
    );
  return { rerender, near: page.getByTestId('near'), far: page.getByTestId('far') };
}

/** The browser tells observers in its rendering steps: after these, every one has been told. */
async function frames(count: number) {
  for (let frame = 0; frame < count; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

describe('a gallery sample’s width', () => {
  it('is measured once the box comes near the viewport, and not before', async () => {
    const { near, far } = await gallery();
    await expect.element(near).toHaveTextContent('120');
    // The observers have answered for the box in view: the far one was told it is far.
    await expect.element(far).toHaveTextContent(/^0$/);

    far.element().scrollIntoView();
    await expect.element(far).toHaveTextContent('300');
  });

  it('keeps following the box once seen, even scrolled away again', async () => {
    const { near, far, rerender } = await gallery();
    far.element().scrollIntoView();
    await expect.element(far).toHaveTextContent('300');
    near.element().scrollIntoView();
    await frames(2);
    await rerender(260);
    await expect.element(far).toHaveTextContent('260');
  });
});
