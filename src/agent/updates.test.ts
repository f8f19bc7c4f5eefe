import { beforeEach, describe, expect, it } from 'vitest';
import type { PlayerState } from '../shared/bridge';
import type { ReleaseOffer, UpdateReport } from '../shared/release';
import { screenSettingsSchema } from '../shared/screen-settings';
import { backoffDelay } from './backoff';
import { emptyState } from './player-state';
import { ServiceError } from './service-client';
import { FakeClock, MemoryStore, recordingLogger } from './testing/fakes';
import {
  UpdateRefused,
  UpdateRolledBack,
  type InstallResult,
  type ReleaseSource,
  type UpdateTarget,
} from './update-ports';
import { UPDATE_REPORTS_KEY } from './update-reports';
import { compareVersions, DOWNLOAD_RETRY, sourceOf, UpdateCoordinator } from './updates';

/** A target whose downloads and installs the test decides; it counts what it was asked. */
class FakeTarget implements UpdateTarget {
  readonly downloads: { offer: ReleaseOffer; source: ReleaseSource }[] = [];
  readonly installs: string[] = [];
  /** What the next download does: resolve, or throw this. */
  downloadError: Error | null = null;
  installAnswer: InstallResult | Error = 'installed';

  constructor(
    readonly kind: 'shell' | 'web',
    public version: string,
  ) {}

  currentVersion(): string {
    return this.version;
  }

  async download(offer: ReleaseOffer, source: ReleaseSource): Promise<void> {
    this.downloads.push({ offer, source });
    if (this.downloadError) throw this.downloadError;
  }

  async install(offer: ReleaseOffer): Promise<InstallResult> {
    this.installs.push(offer.version);
    if (this.installAnswer instanceof Error) throw this.installAnswer;
    if (this.installAnswer === 'installed') this.version = offer.version;
    return this.installAnswer;
  }
}

const offer = (version: string, kind: 'shell' | 'web' = 'shell'): ReleaseOffer => ({
  release_id: `rel_${kind}_${version.replaceAll('.', '_')}`,
  kind,
  channel: 'stable',
  version,
  files: [],
  base_url: `/devices/lobby/releases/rel_${version}/files`,
});

function stateWith(
  release: { shell?: ReleaseOffer | null; web?: ReleaseOffer | null },
  screen: { off?: boolean; override?: boolean; online?: boolean } = {},
): PlayerState {
  const settings = screenSettingsSchema.parse({
    playlist_id: null,
    schedule: null,
    power: null,
    rotation: 0,
    time_zone: null,
    group_id: null,
    sources: {
      playlist_id: 'default',
      schedule: 'default',
      power: 'default',
      rotation: 'default',
      time_zone: 'default',
    },
    playlist_ids: [],
    release: { shell: release.shell ?? null, web: release.web ?? null },
  });
  const override = screen.override
    ? {
        id: 'ovr_1',
        title: 'Evacuate',
        message: '',
        image_url: null,
        sound_url: null,
        background_color: null,
        expires_at: null,
        created_at: '2026-11-28T00:00:00.000Z',
      }
    : null;
  return {
    ...emptyState({ tag: 'lobby', name: 'Lobby' }),
    online: screen.online ?? true,
    settings,
    override,
    display: { rotation: 0, off: screen.off ?? false },
  };
}

let clock: FakeClock;
let store: MemoryStore;
let log: ReturnType<typeof recordingLogger>;
let sent: UpdateReport[];
let serviceDown: boolean;

function coordinator(...targets: UpdateTarget[]): UpdateCoordinator {
  return new UpdateCoordinator({ clock, random: () => 0.5, log, store }, targets);
}

async function started(...targets: UpdateTarget[]): Promise<UpdateCoordinator> {
  const updates = coordinator(...targets);
  await updates.restore();
  updates.connect({ server: 'http://service.test', token: 'tok' }, async (report) => {
    if (serviceDown) throw new ServiceError(0, 'the service cannot be reached');
    sent.push(report);
  });
  return updates;
}

const outcomes = () => sent.map((report) => `${report.kind} ${report.version} ${report.outcome}`);

beforeEach(() => {
  clock = new FakeClock();
  store = new MemoryStore();
  log = recordingLogger();
  sent = [];
  serviceDown = false;
});

describe('UpdateCoordinator: when it installs', () => {
  it('downloads at once but installs an on screen only at the next item switch', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    const updates = await started(shell);
    updates.showing('board:brd_1');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(shell.downloads.map((download) => download.offer.version)).toEqual(['1.1.0']);
    expect(shell.downloads[0]?.source).toEqual({
      baseUrl: 'http://service.test/devices/lobby/releases/rel_1.1.0/files',
      token: 'tok',
    });
    // Heartbeats and states come and go, the item stays: not a moment.
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    updates.showing('board:brd_1');
    await clock.advance(60_000);
    expect(shell.installs).toEqual([]);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading']);

    updates.showing('image:https://cdn.test/a.png');
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.1.0']);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 installed']);
    expect(sent[1]?.detail).toBe('from 1.0.0');
  });

  it('takes the end of an only item’s turn (a play report) as a moment', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    const updates = await started(shell);
    updates.showing('board:brd_1');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(shell.installs).toEqual([]);
    updates.itemEnded();
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.1.0']);
  });

  it('installs at once while the screen is off in a power window, or shows no item', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    const web = new FakeTarget('web', '3.0.0');
    const updates = await started(shell, web);
    updates.showing('board:brd_1');
    updates.observe(stateWith({ shell: offer('1.1.0') }, { off: true }));
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.1.0']);

    updates.showing('waiting');
    updates.observe(stateWith({ shell: offer('1.1.0'), web: offer('3.1.0', 'web') }));
    await clock.advance(0);
    expect(web.installs).toEqual(['3.1.0']);
  });

  it('never installs while an emergency override is on screen, and does once it ends', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    const updates = await started(shell);
    updates.showing('board:brd_1');
    updates.observe(stateWith({ shell: offer('1.1.0') }, { off: true, override: true }));
    await clock.advance(0);
    updates.showing('board:brd_2');
    updates.itemEnded();
    await clock.advance(0);
    expect(shell.installs).toEqual([]);
    updates.observe(stateWith({ shell: offer('1.1.0') }, { off: true }));
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.1.0']);
  });
});

describe('UpdateCoordinator: which offers', () => {
  it('applies a lower version (a rollback) the same way, and nothing for the version running', async () => {
    const shell = new FakeTarget('shell', '2.0.0');
    const updates = await started(shell);
    updates.observe(stateWith({ shell: offer('2.0.0') }));
    await clock.advance(0);
    expect(shell.downloads).toEqual([]);
    updates.observe(stateWith({ shell: offer('1.9.3') }));
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.9.3']);
    expect(sent.map((report) => report.detail)).toEqual(['rollback from 2.0.0', 'from 2.0.0']);
    expect(shell.version).toBe('1.9.3');
  });

  it('reports a release that does not verify once, and does not try it again until the offer changes', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    shell.downloadError = new UpdateRefused('Wallboard.AppImage: its sha512 is not the release’s');
    const updates = await started(shell);
    updates.showing('board:brd_1');
    for (let beat = 0; beat < 20; beat++) {
      updates.observe(stateWith({ shell: offer('1.1.0') }));
      await clock.advance(30_000);
    }
    expect(shell.downloads).toHaveLength(1);
    expect(shell.installs).toEqual([]);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 failed']);
    expect(sent[1]?.detail).toMatch(/sha512 is not the release/);

    // A restart remembers it too.
    await updates.stop();
    const again = await started(shell);
    again.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(shell.downloads).toHaveLength(1);

    shell.downloadError = null;
    again.observe(stateWith({ shell: offer('1.1.1') }));
    again.showing('waiting');
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.1.1']);
  });

  it('tries a download that failed for a passing reason again with backoff, reporting no failure', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    shell.downloadError = new Error('the service answered 503');
    const updates = await started(shell);
    updates.showing('waiting');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(shell.downloads).toHaveLength(1);
    const delay = backoffDelay(0, () => 0.5, DOWNLOAD_RETRY);
    await clock.advance(delay - 1);
    expect(shell.downloads).toHaveLength(1);
    shell.downloadError = null;
    await clock.advance(1);
    expect(shell.downloads).toHaveLength(2);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 installed']);
  });

  it('drops a download whose offer was withdrawn', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    const updates = await started(shell);
    updates.showing('board:brd_1');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    updates.observe(stateWith({ shell: null }));
    updates.showing('board:brd_2');
    await clock.advance(0);
    expect(shell.installs).toEqual([]);
  });

  it('reports an install that threw as failed and does not loop on it', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    shell.installAnswer = new Error('the installer is missing');
    const updates = await started(shell);
    updates.showing('waiting');
    for (let beat = 0; beat < 5; beat++) {
      updates.observe(stateWith({ shell: offer('1.1.0') }));
      await clock.advance(30_000);
    }
    expect(shell.installs).toEqual(['1.1.0']);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 failed']);
  });
});

describe('UpdateCoordinator: an install rolled back', () => {
  it('reports rolled_back with why, and does not try that offer again', async () => {
    const web = new FakeTarget('web', '3.0.0');
    web.installAnswer = new UpdateRolledBack('3.1.0 showed nothing within 180 s');
    const updates = await started(web);
    updates.showing('waiting');
    for (let beat = 0; beat < 3; beat++) {
      updates.observe(stateWith({ web: offer('3.1.0', 'web') }));
      await clock.advance(30_000);
    }
    expect(web.installs).toEqual(['3.1.0']);
    expect(outcomes()).toEqual(['web 3.1.0 downloading', 'web 3.1.0 rolled_back']);
    expect(sent[1]?.detail).toBe('3.1.0 showed nothing within 180 s');
  });
});

describe('UpdateCoordinator: an install that restarts the process', () => {
  it('reports installed at the next start when the new version runs', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    shell.installAnswer = 'restarting';
    const updates = await started(shell);
    updates.showing('waiting');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(shell.installs).toEqual(['1.1.0']);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading']);

    // The installer replaced the app; the new process starts.
    const next = new FakeTarget('shell', '1.1.0');
    const restarted = await started(next);
    restarted.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 installed']);
    expect(next.downloads).toEqual([]);
  });

  it('reports failed at the next start when the old version still runs, and does not try it again', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    shell.installAnswer = 'restarting';
    const updates = await started(shell);
    updates.showing('waiting');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);

    const next = new FakeTarget('shell', '1.0.0');
    const restarted = await started(next);
    restarted.showing('waiting');
    restarted.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(0);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 failed']);
    expect(sent[1]?.detail).toBe('the install of 1.1.0 did not take: 1.0.0 runs');
    expect(next.downloads).toEqual([]);
  });
});

describe('UpdateCoordinator: reports', () => {
  it('keeps reports while the service is away, across a restart, and sends them once it is back', async () => {
    serviceDown = true;
    const shell = new FakeTarget('shell', '1.0.0');
    shell.downloadError = new UpdateRefused('bad file');
    const updates = await started(shell);
    updates.observe(stateWith({ shell: offer('1.1.0') }, { online: false }));
    await clock.advance(5 * 60_000);
    expect(sent).toEqual([]);
    expect(updates.waitingReports.map((report) => report.outcome)).toEqual(['downloading', 'failed']);
    await updates.stop();
    expect(store.data.get(UPDATE_REPORTS_KEY)).toHaveLength(2);

    serviceDown = false;
    const restarted = await started(shell);
    await clock.advance(0);
    expect(outcomes()).toEqual(['shell 1.1.0 downloading', 'shell 1.1.0 failed']);
    expect(restarted.waitingReports).toEqual([]);
    expect(store.data.get(UPDATE_REPORTS_KEY)).toEqual([]);
  });

  it('drops a report an older service has no route for (404) instead of holding the others', async () => {
    const shell = new FakeTarget('shell', '1.0.0');
    const updates = coordinator(shell);
    await updates.restore();
    let calls = 0;
    updates.connect({ server: 'http://service.test', token: 'tok' }, async () => {
      calls += 1;
      throw new ServiceError(404, 'POST /devices/lobby/update-reports: 404 Not Found');
    });
    updates.showing('board:brd_1');
    updates.observe(stateWith({ shell: offer('1.1.0') }));
    await clock.advance(10 * 60_000);
    // `downloading`, sent once and dropped: not sent again every backoff.
    expect(calls).toBe(1);
    expect(updates.waitingReports).toEqual([]);
  });
});

describe('sourceOf and compareVersions', () => {
  it('puts a relative base on the service and refuses one on another origin (the token stays home)', () => {
    const service = { server: 'https://wb.example.com/', token: 't' };
    expect(sourceOf(offer('1.0.0'), service).baseUrl).toBe(
      'https://wb.example.com/devices/lobby/releases/rel_1.0.0/files',
    );
    expect(() => sourceOf({ ...offer('1.0.0'), base_url: 'https://evil.example/files' }, service)).toThrow(
      UpdateRefused,
    );
  });

  it('orders versions by their numbers, a pre-release before its release', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('2.0.0-beta.1', '2.0.0')).toBe(-1);
    expect(compareVersions('2.0.0+build.5', '2.0.0')).toBe(0);
  });
});
