import { execFile } from 'node:child_process';
import type { DeviceControls, PowerMethod } from '../agent/commands';
import type { Logger } from '../agent/ports';

/**
 * Runs a program (no shell) with `input` on its standard input; resolves its standard output,
 * rejects when it cannot start, fails or outlives its time.
 */
export type RunCommand = (file: string, args: readonly string[], input?: string) => Promise<string>;

/** How long a display command may take: cec-client opens the adapter and polls the bus (a few seconds). */
export const DISPLAY_COMMAND_TIMEOUT_MS = 15_000;

/** child_process.execFile with a timeout (SIGKILL after it), `input` written to its standard input. */
export function execRunner(timeoutMs = DISPLAY_COMMAND_TIMEOUT_MS): RunCommand {
  return (file, args, input) =>
    new Promise((resolve, reject) => {
      const child = execFile(
        file,
        [...args],
        { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      );
      // A program that does not read its input must not fail the write.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input ?? '');
    });
}

export interface DisplayPowerOptions {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  run: RunCommand;
  log: Logger;
}

const XSET_OFF = ['dpms', 'force', 'off'];
const XSET_ON = ['dpms', 'force', 'on'];
/** `-s` one command from standard input then exit, `-d 1` errors only in its log. */
const CEC_ARGS = ['-s', '-d', '1'];

/**
 * The display's sleep and wake for the agent's power windows, on Linux: DPMS through the X server
 * (`xset dpms force off`) when DISPLAY is set and xset is installed, else HDMI-CEC standby of the
 * TV at logical address 0 (`echo 'standby 0' | cec-client -s -d 1`) when cec-client is, else
 * nothing ('black': the renderer's black, paused screen is all there is). Wake undoes what sleep
 * did. Other platforms: 'black'. Each step that fails is logged and the next is tried.
 */
export function displayPower({
  platform,
  env,
  run,
  log,
}: DisplayPowerOptions): Required<Pick<DeviceControls, 'sleepDisplay' | 'wakeDisplay'>> {
  let asleep: PowerMethod = 'black';

  const installed = (program: string): Promise<boolean> =>
    run('sh', ['-c', 'command -v "$1"', 'sh', program]).then(
      () => true,
      () => false,
    );

  const attempt = async (what: string, file: string, args: string[], input?: string): Promise<boolean> => {
    try {
      await run(file, args, input);
      return true;
    } catch (error) {
      log.warn(`${what} failed: ${(error as Error).message}`);
      return false;
    }
  };

  return {
    async sleepDisplay() {
      asleep = 'black';
      if (platform !== 'linux') return asleep;
      if (env.DISPLAY && (await installed('xset'))) {
        if (await attempt('xset dpms force off', 'xset', XSET_OFF)) return (asleep = 'dpms');
      }
      if (await installed('cec-client')) {
        if (await attempt('cec-client standby', 'cec-client', CEC_ARGS, 'standby 0\n'))
          return (asleep = 'cec');
      }
      return asleep;
    },
    async wakeDisplay() {
      const method = asleep;
      asleep = 'black';
      if (method === 'dpms') await attempt('xset dpms force on', 'xset', XSET_ON);
      else if (method === 'cec') await attempt('cec-client on', 'cec-client', CEC_ARGS, 'on 0\n');
    },
  };
}
