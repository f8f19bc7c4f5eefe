import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../agent/testing/fakes';
import { displayPower, execRunner, type RunCommand } from './display-power';

interface Call {
  command: string;
  input?: string;
}

/** A machine with these programs installed; `failing` ones exit with an error. */
function fakeMachine(installed: string[], failing: string[] = []) {
  const calls: Call[] = [];
  const run: RunCommand = async (file, args, input) => {
    if (file === 'sh' && args[1] === 'command -v "$1"') {
      const program = args[3] ?? '';
      if (!installed.includes(program)) throw new Error(`${program}: not found`);
      return `/usr/bin/${program}\n`;
    }
    calls.push(
      input === undefined
        ? { command: [file, ...args].join(' ') }
        : { command: [file, ...args].join(' '), input },
    );
    if (failing.includes(file)) throw new Error(`${file} exited with status 1`);
    return '';
  };
  return { run, calls };
}

const X11 = { DISPLAY: ':0' };

describe('putting the display to sleep', () => {
  it('uses DPMS through the X server when DISPLAY is set and xset is installed, and wakes it', async () => {
    const { run, calls } = fakeMachine(['xset', 'cec-client']);
    const power = displayPower({ platform: 'linux', env: X11, run, log: recordingLogger() });
    expect(await power.sleepDisplay()).toBe('dpms');
    await power.wakeDisplay();
    expect(calls).toEqual([{ command: 'xset dpms force off' }, { command: 'xset dpms force on' }]);
  });

  it('puts the TV in standby over HDMI-CEC without a display server, and turns it on', async () => {
    const { run, calls } = fakeMachine(['xset', 'cec-client']);
    const power = displayPower({ platform: 'linux', env: {}, run, log: recordingLogger() });
    expect(await power.sleepDisplay()).toBe('cec');
    await power.wakeDisplay();
    expect(calls).toEqual([
      { command: 'cec-client -s -d 1', input: 'standby 0\n' },
      { command: 'cec-client -s -d 1', input: 'on 0\n' },
    ]);
  });

  it('falls back to HDMI-CEC when xset fails, saying why', async () => {
    const { run, calls } = fakeMachine(['xset', 'cec-client'], ['xset']);
    const log = recordingLogger();
    const power = displayPower({ platform: 'linux', env: X11, run, log });
    expect(await power.sleepDisplay()).toBe('cec');
    expect(calls.map((call) => call.command)).toEqual(['xset dpms force off', 'cec-client -s -d 1']);
    expect(log.lines).toEqual(['warn xset dpms force off failed: xset exited with status 1']);
  });

  it('answers black when neither is there or works, and then has nothing to undo', async () => {
    for (const machine of [fakeMachine([]), fakeMachine(['cec-client'], ['cec-client'])]) {
      const power = displayPower({ platform: 'linux', env: X11, run: machine.run, log: recordingLogger() });
      expect(await power.sleepDisplay()).toBe('black');
      const before = machine.calls.length;
      await power.wakeDisplay();
      expect(machine.calls).toHaveLength(before);
    }
  });

  it('runs nothing on other platforms', async () => {
    for (const platform of ['win32', 'darwin'] as const) {
      const { run, calls } = fakeMachine(['xset', 'cec-client']);
      const power = displayPower({ platform, env: X11, run, log: recordingLogger() });
      expect(await power.sleepDisplay()).toBe('black');
      await power.wakeDisplay();
      expect(calls).toEqual([]);
    }
  });

  it('wakes only what it put to sleep, once', async () => {
    const { run, calls } = fakeMachine(['xset']);
    const power = displayPower({ platform: 'linux', env: X11, run, log: recordingLogger() });
    await power.sleepDisplay();
    await power.wakeDisplay();
    await power.wakeDisplay();
    expect(calls.map((call) => call.command)).toEqual(['xset dpms force off', 'xset dpms force on']);
  });
});

describe('the command runner', () => {
  it('writes the input, answers the output, and fails on a bad exit or a timeout', async () => {
    const run = execRunner(2000);
    expect(await run('sh', ['-c', 'read line; echo "got $line"'], 'standby 0\n')).toBe('got standby 0\n');
    await expect(run('sh', ['-c', 'exit 3'])).rejects.toThrow();
    await expect(run('sh', ['-c', 'command -v "$1"', 'sh', 'no-such-program-here'])).rejects.toThrow();
    await expect(execRunner(100)('sleep', ['5'])).rejects.toMatchObject({ killed: true });
  });
});
