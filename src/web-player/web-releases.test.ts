import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { PlayReport } from '../shared/play';
import { emptyPlayerState } from '../shared/testing/bridge-fixtures';
import type { ReleaseOffer } from '../shared/release';
import { agentFrameSchema, WEB_VERSIONS_EVENTS_PATH, type CallFrame } from '../shared/web-bridge-protocol';
import { fetchFromFolder, offerOfFolder } from './testing/release-bundles';
import { startWebPlayerServer, type WebPlayerServer } from './web-player-server';
import { WebReleases } from './web-releases';
import { WebVersions } from './web-versions';
import { RecordingHost } from './testing/recording-host';

// The web player's server with versions: what each page's frames count for while a version is on
// trial and after it is on screen, the paths, and the trial's end either way. Pages are WebSocket
// clients here; e2e/web-player-update.spec.ts swaps real pages in Chromium.

/** A page's bridge socket, keeping the kinds of the messages it is sent. */
class Page {
  readonly kinds: string[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = agentFrameSchema.parse(JSON.parse(String(data)));
      if (frame.kind === 'message') this.kinds.push((frame.message as { kind: string }).kind);
    });
  }
  static async open(server: WebPlayerServer, page: string): Promise<Page> {
    const url = new URL(`bridge?page=${encodeURIComponent(page)}`, server.url).href.replace(/^http/, 'ws');
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Page(socket);
  }
  send(frame: CallFrame): void {
    this.socket.send(JSON.stringify(frame));
  }
}

let dir: string;
let host: RecordingHost;
let versions: WebVersions;
let server: WebPlayerServer;
let pages: Page[];
const PLAY: PlayReport = {
  type: 'board',
  board_id: 'b1',
  url: null,
  channel_id: null,
  started_at: '2026-11-28T01:00:00.000Z',
  ended_at: '2026-11-28T01:00:10.000Z',
};

async function bundle(version: string): Promise<{ folder: string; offer: ReleaseOffer }> {
  const folder = join(dir, 'bundles', version);
  await mkdir(join(folder, 'assets'), { recursive: true });
  await writeFile(join(folder, 'index.html'), `<!doctype html><title>${version}</title>`);
  await writeFile(join(folder, 'assets', 'app.js'), `// ${version}`);
  return { folder, offer: await offerOfFolder(folder, version) };
}

async function start(healthTimeoutMs: number): Promise<WebReleases> {
  const a = await bundle('1.0.0');
  await versions.download(a.offer, fetchFromFolder(a.folder));
  await versions.activate('1.0.0');
  const releases = new WebReleases({ versions, log: { info: () => {}, warn: () => {} }, healthTimeoutMs });
  server = await startWebPlayerServer({ host, rendererDir: join(dir, 'built-in'), mediaDir: dir, releases });
  return releases;
}

async function open(page: string): Promise<Page> {
  const opened = await Page.open(server, page);
  pages.push(opened);
  return opened;
}

/** Until `check` holds (frames cross a socket). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'web-releases-'));
  await mkdir(join(dir, 'built-in'));
  await writeFile(join(dir, 'built-in', 'index.html'), 'built in');
  host = new RecordingHost(emptyPlayerState('hall'));
  versions = new WebVersions(join(dir, 'player'), join(dir, 'built-in'), '0.1.0');
  await versions.open();
  pages = [];
});

afterEach(async () => {
  for (const page of pages) page.socket.terminate();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the web player with versions', () => {
  it('sends "/" to the version on screen, serves each version framed by itself, and a gone one\'s page to the live one', async () => {
    await start(10_000);
    const root = await fetch(server.url, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/v/1.0.0/');
    const page = await fetch(new URL('v/1.0.0/', server.url));
    expect(await page.text()).toBe('<!doctype html><title>1.0.0</title>');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect((await fetch(new URL('v/built-in/', server.url))).status).toBe(200);
    const gone = await fetch(new URL('v/0.9.0/', server.url), { redirect: 'manual' });
    expect(gone.headers.get('location')).toBe('/v/1.0.0/');
    expect((await fetch(new URL('v/0.9.0/assets/app.js', server.url))).status).toBe(404);
    // Paths outside a version are the live one's.
    expect(await (await fetch(new URL('assets/app.js', server.url))).text()).toBe('// 1.0.0');
    // Nothing outside a version's folder: not the pointer beside it, not another label by dots.
    for (const path of [
      'v/1.0.0/..%2Fcurrent',
      'v/%2E%2E/current',
      'v/1.0.0/%2E%2E/%2E%2E/versions/current',
    ]) {
      const answer = await fetch(new URL(path, server.url), { redirect: 'manual' });
      expect([403, 404], path).toContain(answer.status);
    }
  });

  it('counts the trial page only once it shows something; then it is the page that counts', async () => {
    const releases = await start(10_000);
    const a = await open('/v/1.0.0/');
    const b = await bundle('1.1.0');
    const applying = releases.apply(b.offer, fetchFromFolder(b.folder));
    await until(() => releases.state().trial?.label === '1.1.0');
    const trial = await open('/v/1.1.0/');

    // The trial page plays and fails unseen: none of it is the screen's. Its log is kept, marked.
    trial.send({ method: 'reportPlay', request: PLAY });
    trial.send({ method: 'reportFailure', request: { item: 'board:b1', reason: 'broken' } });
    trial.send({ method: 'log', request: { level: 'warn', message: 'slow' } });
    host.emit({ kind: 'identify', name: 'Hall', tag: 'hall', seconds: 5 });
    host.emit({ kind: 'state', state: emptyPlayerState('hall') });
    await until(() => host.logs.length === 1 && trial.kinds.length === 1 && a.kinds.length === 2);
    expect(host.logs).toEqual([{ level: 'warn', message: '(version 1.1.0, not on screen) slow' }]);
    expect(host.plays).toEqual([]);
    expect(host.failures).toEqual([]);
    // Told what to draw, not what sounds or shows a face: the page on screen does that, once.
    expect(trial.kinds).toEqual(['state']);
    expect(a.kinds).toEqual(['identify', 'state']);

    trial.send({ method: 'reportShowing', request: { showing: 'board:b1' } });
    expect(await applying).toMatchObject({ outcome: 'installed' });
    expect(host.reports).toEqual([{ showing: 'board:b1' }]);
    expect(releases.state()).toMatchObject({ live: { label: '1.1.0', url: '/v/1.1.0/' }, trial: null });

    // The old page, on its way out, no longer counts; the new one does.
    a.send({ method: 'reportShowing', request: { showing: 'board:old' } });
    a.send({ method: 'reportPlay', request: PLAY });
    trial.send({ method: 'reportPlay', request: PLAY });
    await until(() => host.plays.length === 1);
    expect(host.reports).toEqual([{ showing: 'board:b1' }]);
    expect((await fetch(server.url, { redirect: 'manual' })).headers.get('location')).toBe('/v/1.1.0/');
  });

  it('rolls back a version that does not show anything within the health timeout', async () => {
    const releases = await start(300);
    await open('/v/1.0.0/');
    const b = await bundle('1.1.0');
    const started = Date.now();
    expect(await releases.apply(b.offer, fetchFromFolder(b.folder))).toEqual({
      outcome: 'rolled_back',
      detail: 'version 1.1.0 did not report what it shows within 0.3 s; back on 1.0.0',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(releases.state()).toMatchObject({ live: { label: '1.0.0' }, trial: null });
    expect(await releases.apply(b.offer, fetchFromFolder(b.folder))).toBeNull();
  });

  it('tells a page following the versions the state now and at every change', async () => {
    const releases = await start(10_000);
    const response = await fetch(new URL(WEB_VERSIONS_EVENTS_PATH, server.url));
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: string[] = [];
    const nextEvent = async () => {
      let text = '';
      while (!text.includes('\n\n')) text += (await reader.read()).value ?? '';
      events.push(text);
      return JSON.parse(text.slice(text.indexOf('data: ') + 6).trim()) as unknown;
    };
    expect(await nextEvent()).toEqual({
      live: { label: '1.0.0', version: '1.0.0', url: '/v/1.0.0/' },
      trial: null,
    });
    const b = await bundle('1.1.0');
    void releases.apply(b.offer, fetchFromFolder(b.folder));
    expect(await nextEvent()).toMatchObject({ trial: { label: '1.1.0', url: '/v/1.1.0/' } });
    await reader.cancel();
  });
});
