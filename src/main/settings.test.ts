import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readShellFlagsSync, ShellSettings } from './settings';

let dir: string;
let STORE: string;
let warnings: string[];
const log = () => ({ info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-settings-'));
  STORE = join(dir, 'shell-settings.json');
  warnings = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the shell settings', () => {
  it('remember what a command line gave, merged over what was stored', async () => {
    const settings = new ShellSettings(dir, log());
    await settings.remember({ server: 'https://wall.example', tag: 'lobby' });
    await settings.remember({ name: 'Lobby screen', tag: undefined, heartbeatSeconds: 60 });
    expect(await new ShellSettings(dir, log()).readSettings()).toEqual({
      server: 'https://wall.example',
      tag: 'lobby',
      name: 'Lobby screen',
      heartbeatSeconds: 60,
    });
    expect(await readFile(STORE, 'utf8')).not.toContain('token');
  });

  it('survive a damaged file by reading the copy kept after the last good write', async () => {
    const settings = new ShellSettings(dir, log());
    await settings.remember({ server: 'https://one.example' });
    await settings.remember({ server: 'https://two.example' });
    // A disk that lost what was flushed, or a hand edit gone wrong.
    const text = await readFile(STORE, 'utf8');
    await writeFile(STORE, text.slice(0, text.length / 2));
    const reopened = new ShellSettings(dir, log());
    expect(await reopened.readSettings()).toEqual({ server: 'https://two.example' });
    expect(warnings).toEqual([
      expect.stringMatching(/the stored settings were damaged .*using their last good copy/),
    ]);
    // Writes go on from the recovered copy.
    await reopened.remember({ name: 'after' });
    expect(await new ShellSettings(dir, log()).readSettings()).toEqual({
      server: 'https://two.example',
      name: 'after',
    });
  });

  it('start without them when the copy is damaged too, rather than keep the screen from starting', async () => {
    await new ShellSettings(dir, log()).remember({ server: 'https://one.example' });
    await writeFile(STORE, '{"settings": {');
    await writeFile(join(dir, 'shell-settings.last-good.json'), 'garbage');
    expect(await new ShellSettings(dir, log()).readSettings()).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/no good copy was left; starting without them/)]);
  });

  it('keep the GPU flag where the synchronous start-up read finds it, also from the last good copy', async () => {
    expect(readShellFlagsSync(dir, log())).toEqual({ disable_gpu: false });
    const settings = new ShellSettings(dir, log());
    await settings.setGpuDisabled(true);
    expect(readShellFlagsSync(dir, log())).toEqual({ disable_gpu: true });
    await writeFile(STORE, '{"shell": {"disable_gpu": tr');
    expect(readShellFlagsSync(dir, log())).toEqual({ disable_gpu: true });
  });

  it('take over the files of the earlier settings folder once, the backup where a file is damaged', async () => {
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ server: 'https://old.example' }));
    await writeFile(join(dir, 'shell.json'), '{"disable_gpu": tr');
    await writeFile(join(dir, 'shell.json.bak'), JSON.stringify({ disable_gpu: true }));
    const settings = new ShellSettings(dir, log());
    expect(await settings.readSettings()).toEqual({ server: 'https://old.example' });
    expect(await settings.readFlags()).toEqual({ disable_gpu: true });
    await settings.remember({ server: 'https://new.example' });
    expect(await new ShellSettings(dir, log()).readSettings()).toEqual({ server: 'https://new.example' });
  });

  it('carry recoveries across a restart, once', async () => {
    const settings = new ShellSettings(dir, log());
    await settings.addPendingRecovery('restarted the app: crash loop');
    await settings.addPendingRecovery('restarted the app: GPU');
    const next = new ShellSettings(dir, log());
    expect(await next.takePendingRecoveries()).toEqual([
      'restarted the app: crash loop',
      'restarted the app: GPU',
    ]);
    expect(await next.takePendingRecoveries()).toEqual([]);
  });
});
