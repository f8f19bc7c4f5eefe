import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readShellFlagsSync, ShellSettings } from './settings';

let dir: string;
let warnings: string[];
const log = () => ({ info: () => undefined, warn: (m: string) => warnings.push(m), error: () => undefined });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-settings-'));
  warnings = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the shell settings', () => {
  it('remember what a command line gave, merged over what was stored', async () => {
    const settings = new ShellSettings(dir, log());
    await settings.remember({ server: 'https://wall.example', tag: 'lobby' });
    await settings.remember({ name: 'Lobby screen', tag: undefined, heartbeatSeconds: 60 });
    expect(await settings.readSettings()).toEqual({
      server: 'https://wall.example',
      tag: 'lobby',
      name: 'Lobby screen',
      heartbeatSeconds: 60,
    });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).not.toHaveProperty('token');
  });

  it('survive a truncated settings file by reading the last good copy', async () => {
    const settings = new ShellSettings(dir, log());
    await settings.remember({ server: 'https://one.example' });
    await settings.remember({ server: 'https://two.example' });
    // A power cut that left half a file behind.
    const text = await readFile(join(dir, 'settings.json'), 'utf8');
    await writeFile(join(dir, 'settings.json'), text.slice(0, text.length / 2));
    const reopened = new ShellSettings(dir, log());
    expect(await reopened.readSettings()).toEqual({ server: 'https://one.example' });
    expect(warnings).toEqual([expect.stringMatching(/the stored settings was damaged \(corrupt/)]);
    // The next write goes on from the recovered copy and keeps the backup good.
    await reopened.remember({ name: 'after' });
    expect(await new ShellSettings(dir, log()).readSettings()).toEqual({
      server: 'https://one.example',
      name: 'after',
    });
  });

  it('keep the GPU flag where the synchronous start-up read finds it, also from the backup', async () => {
    expect(readShellFlagsSync(dir)).toEqual({ disable_gpu: false });
    const settings = new ShellSettings(dir, log());
    await settings.setGpuDisabled(false);
    await settings.setGpuDisabled(true);
    expect(readShellFlagsSync(dir)).toEqual({ disable_gpu: true });
    await writeFile(join(dir, 'shell.json'), '{"disable_gpu": tr');
    // The backup holds the write before the last one.
    expect(readShellFlagsSync(dir)).toEqual({ disable_gpu: false });
    await writeFile(join(dir, 'shell.json.bak'), 'garbage');
    expect(readShellFlagsSync(dir)).toEqual({ disable_gpu: false });
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
