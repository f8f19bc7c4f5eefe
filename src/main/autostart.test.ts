import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  autostartFiles,
  desktopArg,
  installAutostart,
  removeAutostart,
  systemdArg,
  type AutostartTarget,
} from './autostart';

const TEMPLATES = fileURLToPath(new URL('../../resources/linux', import.meta.url));
const run = promisify(execFile);

let home: string;
let systemctl: string[][];
let systemctlWorks: boolean;
const edges = () => ({
  loginItems: [] as unknown[],
  setLoginItemSettings(settings: unknown) {
    this.loginItems.push(settings);
  },
  async systemctl(args: string[]) {
    systemctl.push(args);
    return systemctlWorks;
  },
});

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'wallboard-home-'));
  systemctl = [];
  systemctlWorks = true;
});
afterEach(() => rm(home, { recursive: true, force: true }));

const linux = (command: string[]): AutostartTarget => ({
  platform: 'linux',
  home,
  command,
  templatesDir: TEMPLATES,
});

/** The Exec key read back the way the Desktop Entry Specification says a launcher reads it. */
function parseExec(value: string): string[] {
  const unescaped = value.replace(
    /\\(.)/g,
    (_, c: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r' })[c] ?? c,
  );
  const args: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (let i = 0; i < unescaped.length; i += 1) {
    const c = unescaped[i]!;
    if (quoted && c === '\\' && '"`$\\'.includes(unescaped[i + 1] ?? '')) {
      current += unescaped[++i];
    } else if (c === '"') {
      quoted = !quoted;
      started = true;
    } else if (c === ' ' && !quoted) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (started) args.push(current);
  return args.map((arg) => arg.replace(/%%/g, '%'));
}

function execOf(desktop: string): string {
  const line = desktop.split('\n').find((l) => l.startsWith('Exec='));
  if (!line) throw new Error('no Exec line');
  return line.slice('Exec='.length);
}

describe('autostart on Linux', () => {
  it('writes the XDG entry and the systemd user unit, and enables the unit', async () => {
    const done = await installAutostart(linux(['/opt/Wallboard/wallboard']), edges());
    const files = autostartFiles({ home });
    expect(files.desktop).toBe(join(home, '.config', 'autostart', 'wallboard.desktop'));
    expect(files.unit).toBe(join(home, '.config', 'systemd', 'user', 'wallboard.service'));
    const desktop = await readFile(files.desktop, 'utf8');
    const unit = await readFile(files.unit, 'utf8');
    expect(desktop).toMatch(/^\[Desktop Entry\]$/m);
    expect(desktop).toMatch(/^Type=Application$/m);
    expect(desktop).not.toContain('@APP@');
    expect(unit).toMatch(/^ExecStart=\/opt\/Wallboard\/wallboard$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^Environment=WALLBOARD_SUPERVISED=systemd$/m);
    expect(unit).toMatch(/^RestartPreventExitStatus=2$/m);
    expect(unit).toMatch(/^WantedBy=graphical-session.target$/m);
    expect((await stat(files.desktop)).mode & 0o777).toBe(0o644);
    expect(systemctl).toEqual([['daemon-reload'], ['enable', 'wallboard.service']]);
    expect(done.at(-1)).toBe('enabled the systemd user unit wallboard.service');
  });

  it('writes the files even without systemd, and says the entry starts the app', async () => {
    systemctlWorks = false;
    const done = await installAutostart(linux(['/usr/bin/wallboard']), edges());
    await expect(stat(autostartFiles({ home }).unit)).resolves.toBeTruthy();
    expect(done.at(-1)).toMatch(/could not enable wallboard.service/);
  });

  it('honours XDG_CONFIG_HOME', async () => {
    const config = join(home, 'elsewhere');
    await installAutostart({ ...linux(['/usr/bin/wallboard']), xdgConfigHome: config }, edges());
    await expect(stat(join(config, 'autostart', 'wallboard.desktop'))).resolves.toBeTruthy();
  });

  it('removes both files and disables the unit', async () => {
    await installAutostart(linux(['/usr/bin/wallboard']), edges());
    systemctl = [];
    await removeAutostart(linux(['/usr/bin/wallboard']), edges());
    const files = autostartFiles({ home });
    await expect(stat(files.desktop)).rejects.toThrow(/ENOENT/);
    await expect(stat(files.unit)).rejects.toThrow(/ENOENT/);
    expect(systemctl).toEqual([['disable', 'wallboard.service'], ['daemon-reload']]);
    // Removing twice is not an error.
    await removeAutostart(linux(['/usr/bin/wallboard']), edges());
  });

  it('starts the app itself from the XDG entry where the unit cannot be started', async () => {
    // A fake systemctl that fails, and an app whose path has a space, a dollar and a percent.
    const bin = join(home, 'bin');
    const appDir = join(home, 'My Apps $HOME 100%');
    await mkdir(bin);
    await mkdir(appDir);
    await writeFile(join(bin, 'systemctl'), '#!/bin/sh\nexit 1\n');
    const app = join(appDir, 'wallboard');
    const out = join(home, 'ran.txt');
    await writeFile(app, `#!/bin/sh\nprintf '%s\\n' "$@" > '${out}'\n`);
    await chmod(join(bin, 'systemctl'), 0o755);
    await chmod(app, 0o755);
    await installAutostart(linux([app, '--flag', 'two words']), edges());
    const argv = parseExec(execOf(await readFile(autostartFiles({ home }).desktop, 'utf8')));
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv.slice(3)).toEqual([app, '--flag', 'two words']);
    const [program = '', ...args] = argv;
    await run(program, args, { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(await readFile(out, 'utf8')).toBe('--flag\ntwo words\n');
  });
});

describe('autostart on Windows and macOS', () => {
  it('uses the login item settings', async () => {
    const e = edges();
    await installAutostart({ ...linux(['C:\\Wallboard\\Wallboard.exe']), platform: 'win32' }, e);
    await removeAutostart({ ...linux(['C:\\Wallboard\\Wallboard.exe']), platform: 'win32' }, e);
    expect(e.loginItems).toEqual([
      { openAtLogin: true, path: 'C:\\Wallboard\\Wallboard.exe', args: [] },
      { openAtLogin: false },
    ]);
    expect(systemctl).toEqual([]);
  });
});

describe('quoting', () => {
  it('quotes desktop entry arguments by the specification', () => {
    expect(desktopArg('/usr/bin/wallboard')).toBe('/usr/bin/wallboard');
    expect(desktopArg('/a b/c')).toBe('"/a b/c"');
    expect(desktopArg('/a/$x')).toBe('"/a/\\\\$x"');
    expect(desktopArg('50%')).toBe('50%%');
    expect(parseExec(desktopArg('/a "b"/`c` \\d $e'))).toEqual(['/a "b"/`c` \\d $e']);
  });

  it('quotes systemd arguments', () => {
    expect(systemdArg('/usr/bin/wallboard')).toBe('/usr/bin/wallboard');
    expect(systemdArg('/a b/c')).toBe('"/a b/c"');
    expect(systemdArg('/a/$x%')).toBe('/a/$$x%%');
  });
});
