import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BridgeHost } from '../src/agent/bridge-host';
import type { PlayerState } from '../src/shared/bridge';
import { startWebPlayerServer, type WebPlayerServer } from '../src/web-player/web-player-server';
import { expect, test } from './fixtures';
import { emptyPlayerState } from '../src/shared/testing/bridge-fixtures';
import { RecordingHost } from '../src/web-player/testing/recording-host';

const RENDERER_DIST = fileURLToPath(new URL('../dist/renderer', import.meta.url));

const lobby: PlayerState = emptyPlayerState('lobby-screen');

let mediaDir: string;
let servers: WebPlayerServer[];

async function startPlayer(host: BridgeHost, port = 0): Promise<WebPlayerServer> {
  const server = await startWebPlayerServer({ host, rendererDir: RENDERER_DIST, mediaDir, port });
  servers.push(server);
  return server;
}

test.beforeEach(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'web-player-media-'));
  servers = [];
});

test.afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(mediaDir, { recursive: true, force: true });
});

test('the waiting screen names the device the agent reports', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(() => {
    const violations: string[] = [];
    Object.assign(window, { cspViolations: violations });
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(`${event.effectiveDirective} ${event.blockedURI}`),
    );
  });
  const server = await startPlayer(new RecordingHost(lobby));

  await page.goto(server.url);

  await expect(page.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
  await expect(page.getByTestId('device-tag')).toHaveText('lobby-screen');
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');
  expect(errors).toEqual([]);
  // The server's Content-Security-Policy lets the player load everything it needs, and nothing in
  // the player tries what it forbids (zod is told not to probe for eval).
  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations: string[] }).cspViolations,
  );
  expect(violations).toEqual([]);
});

test('the page reports what it shows with its own size, and its leaving says "no renderer"', async ({
  page,
}) => {
  const host = new RecordingHost(lobby);
  const server = await startPlayer(host);
  await page.setViewportSize({ width: 800, height: 450 });
  await page.goto(server.url);
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');
  const ratio = await page.evaluate(() => window.devicePixelRatio);
  await expect
    .poll(() => host.reports.at(-1))
    .toEqual({
      showing: 'waiting',
      display: { width: Math.round(800 * ratio), height: Math.round(450 * ratio) },
    });
  await page.close();
  await expect.poll(() => host.reports.at(-1)).toEqual({ showing: 'no renderer' });
});

test('a state pushed by the agent replaces the one on screen', async ({ page }) => {
  const host = new RecordingHost(lobby);
  const server = await startPlayer(host);
  await page.goto(server.url);
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');

  host.emit({ kind: 'state', state: { ...lobby, device: { tag: 'hall-screen', name: 'Main hall' } } });

  await expect(page.getByTestId('device-tag')).toHaveText('hall-screen');
  await expect(page.getByTestId('device-name')).toHaveText('Main hall');
});

test('the page logs to the agent when the agent sends something invalid', async ({ page }) => {
  const host = new RecordingHost(lobby);
  const server = await startPlayer(host);
  await page.goto(server.url);
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');

  host.emit({ kind: 'state', state: { ...lobby, device: { tag: '', name: 'Nameless' } } });

  await expect
    .poll(() => host.logs)
    .toEqual([{ level: 'warn', message: expect.stringContaining('ignored an invalid bridge frame') }]);
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');
});

test('one bad playlist item costs that item, not the whole state', async ({ page }) => {
  const host = new RecordingHost(lobby);
  const server = await startPlayer(host);
  await page.goto(server.url);
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');

  const items = [
    { type: 'image', url: 'not a url', duration: 10 },
    { type: 'image', url: 'https://media.example.com/welcome.png', duration: 10 },
  ];
  const playlist = { id: 'pl_1', name: 'Hall', items, updated_at: '2026-11-23T12:00:00.000Z' };
  const hall = { ...lobby, device: { tag: 'hall-screen', name: 'Main hall' }, playlist };
  host.emit({ kind: 'state', state: hall as unknown as PlayerState });

  await expect
    .poll(() => host.logs.map((log) => log.message))
    .toContainEqual(expect.stringContaining('skipped item 1 of the playlist'));
  expect(host.logs.some((log) => log.message.includes('ignored an invalid'))).toBe(false);
  // The rest of the state was taken.
  await expect(page.getByTestId('device-name')).toHaveText('Main hall');
});

test('after the agent restarts the page reconnects and catches up', async ({ page }) => {
  const first = await startPlayer(new RecordingHost(lobby));
  const port = Number(new URL(first.url).port);
  await page.goto(first.url);
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');

  await first.close();
  // The screen keeps what it shows while the agent is away rather than blanking.
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');
  await startPlayer(
    new RecordingHost({ ...lobby, device: { tag: 'lobby-screen', name: 'Lobby (renamed)' } }),
    port,
  );

  await expect(page.getByTestId('device-name')).toHaveText('Lobby (renamed)');
});

test('without an agent behind the page server the player says so', async ({ page, renderer }) => {
  // The plain static server has no /bridge: the page tries the socket, fails, and says why.
  await page.goto(renderer.url);
  await expect(page.getByText('No device agent is connected to this player.')).toBeVisible();
});
