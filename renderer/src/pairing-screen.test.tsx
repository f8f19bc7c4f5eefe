import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { Setup } from '../../src/shared/bridge';
import { emptyPlayerState } from '../../src/shared/testing/bridge-fixtures';
import { App } from './app';
import { SetupScreen } from './pairing-screen';
import { FakeBridge } from './player/player-test-kit';

const device = { tag: 'screen-0123', name: 'Lobby' };
const pairing: Setup = {
  kind: 'pairing',
  code: '7HK3MQ',
  service_url: 'http://wall.lan:8787',
  claim_url: 'http://wall.lan:8787/#/pair?code=7HK3MQ',
  expires_at: '2026-11-21T08:10:00.000Z',
};

/** What a phone's camera would read off the QR code as drawn: the SVG rasterised, then decoded. */
async function readQr(svg: SVGSVGElement): Promise<string | null> {
  const url = URL.createObjectURL(
    new Blob([new XMLSerializer().serializeToString(svg)], { type: 'image/svg+xml' }),
  );
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 400;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d context');
  context.drawImage(image, 0, 0, 400, 400);
  URL.revokeObjectURL(url);
  return jsQR(context.getImageData(0, 0, 400, 400).data, 400, 400)?.data ?? null;
}

describe('pairing screen', () => {
  it('shows the code in two groups, the service, and a QR code of the claim page', async () => {
    const screen = await render(
      <SetupScreen setup={pairing} device={device} bridge={new FakeBridge(emptyPlayerState())} />,
    );
    await expect.element(screen.getByTestId('pairing-code')).toHaveTextContent('7HK 3MQ');
    await expect.element(screen.getByTestId('service-url')).toHaveTextContent('http://wall.lan:8787');
    const qr = screen.container.querySelector<SVGSVGElement>('svg.qr-code');
    if (!qr) throw new Error('no QR code');
    expect(await readQr(qr)).toBe('http://wall.lan:8787/#/pair?code=7HK3MQ');
  });

  it('is large enough to read across a room: on a 1080p wall the code is a sixth of its height', async () => {
    await page.viewport(1920, 1080);
    const screen = await render(
      <SetupScreen setup={pairing} device={device} bridge={new FakeBridge(emptyPlayerState())} />,
    );
    const code = screen.getByTestId('pairing-code').element().getBoundingClientRect();
    // About 170 px: 11 cm on a 55-inch screen, legible from some 13 m by signage's rule of thumb
    // (an inch of letter height for every 10 feet).
    expect(code.height).toBeGreaterThan(1080 / 7);
    expect(code.width).toBeLessThan(1920 / 2);
  });

  it('says the token was refused, naming the service and the device', async () => {
    const screen = await render(
      <SetupScreen
        setup={{ kind: 'refused', service_url: 'http://wall.lan:8787' }}
        device={device}
        bridge={new FakeBridge(emptyPlayerState())}
      />,
    );
    await expect.element(screen.getByRole('heading')).toHaveTextContent("This screen's token was refused");
    await expect.element(screen.getByTestId('device-tag')).toHaveTextContent('screen-0123');
  });

  it('says why it has no code yet', async () => {
    const screen = await render(
      <SetupScreen
        setup={{
          kind: 'contacting',
          service_url: 'http://wall.lan:8787',
          problem: 'the service cannot be reached',
        }}
        device={device}
        bridge={new FakeBridge(emptyPlayerState())}
      />,
    );
    await expect
      .element(screen.getByText('the service cannot be reached. Trying again shortly.'))
      .toBeVisible();
  });
});

describe('services found on the network', () => {
  const services = [
    { id: 'a._wallboard._tcp.local', name: 'Wallboard office', url: 'http://192.0.2.10:8787' },
    { id: 'b._wallboard._tcp.local', name: 'Wallboard lab', url: 'http://192.0.2.11:8787' },
  ];

  it('lets the operator pick one of several by its number or a click', async () => {
    const bridge = new FakeBridge(emptyPlayerState());
    const screen = await render(
      <SetupScreen setup={{ kind: 'discovering', services }} device={device} bridge={bridge} />,
    );
    await expect.element(screen.getByText('Wallboard lab')).toBeVisible();
    await userEvent.keyboard('2');
    expect(bridge.chosen).toEqual(['b._wallboard._tcp.local']);
    await screen.getByText('Wallboard office').click();
    expect(bridge.chosen).toEqual(['b._wallboard._tcp.local', 'a._wallboard._tcp.local']);
  });

  it('takes no pick while only one answered (the agent pairs with it by itself)', async () => {
    const bridge = new FakeBridge(emptyPlayerState());
    const screen = await render(
      <SetupScreen
        setup={{ kind: 'discovering', services: services.slice(0, 1) }}
        device={device}
        bridge={bridge}
      />,
    );
    await expect.element(screen.getByText(/pairing with it in a moment/)).toBeVisible();
    await userEvent.keyboard('1');
    expect(bridge.chosen).toEqual([]);
  });
});

describe('app', () => {
  it('shows the setup face instead of the player, and plays once it is gone', async () => {
    const bridge = new FakeBridge(emptyPlayerState('screen-0123', { setup: pairing }));
    const screen = await render(<App bridge={bridge} />);
    await expect.element(screen.getByTestId('pairing-code')).toHaveTextContent('7HK 3MQ');
    bridge.emit({ kind: 'state', state: emptyPlayerState('kitchen', { setup: null }) });
    await expect.element(screen.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
    await expect.element(screen.getByTestId('device-tag')).toHaveTextContent('kitchen');
  });
});
