// Which port a server of ours listens on when nobody said (`npm start`'s embedded service and web
// player, `npm run start:web`): the one it used last time, else a fixed default, so that addresses
// printed, bookmarked or written in the README keep working from one start to the next. A port
// taken by another program (a second instance) is no reason to fail: another is taken, and said.
// A port asked for on the command line is taken or fails, never swapped silently.
//
// Listening is tried, not checked first: a check ("is 8787 free?") followed by a listen races with
// anything else starting at the same moment, and the listen's own EADDRINUSE is the true answer.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface PortWish {
  /** Asked for on the command line: this one and no other (0: any free one, not remembered). */
  requested?: number;
  /** When none is asked for and none remembered. */
  byDefault: number;
  /** A file that keeps the port last used (a decimal number); none: nothing is remembered. */
  memory?: string;
  /** The flag that asks for a port, named when the one asked for is taken. */
  flag: string;
}

export interface PortChosen {
  port: number;
  /** Why it is not the port wanted (that one was taken), for the person at the terminal. */
  note: string | null;
}

/** The port asked for is in use: a message that says which flag chooses another. */
export class PortTakenError extends Error {
  override name = 'PortTakenError';
}

const isPort = (value: number) => Number.isInteger(value) && value > 0 && value <= 65535;

const isTaken = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';

/** The port kept in `file`, or undefined when there is none (or it is not a port). */
export async function rememberedPort(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const port = Number(text.trim());
  return text.trim() !== '' && isPort(port) ? port : undefined;
}

async function remember(file: string, port: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${port}\n`);
}

/**
 * Listens through `listen` (which resolves with the port bound, or rejects with the server's
 * error) on the port `wish` asks for: the requested one alone; else the remembered one, then the
 * default, then any free one. The port used is remembered for the next start, a free one picked
 * because the others were taken included: the address printed this time is the one of next time.
 */
export async function listenOnChosenPort(
  wish: PortWish,
  listen: (port: number) => Promise<number>,
): Promise<PortChosen> {
  if (wish.requested !== undefined) {
    let port: number;
    try {
      port = await listen(wish.requested);
    } catch (error) {
      if (!isTaken(error)) throw error;
      throw new PortTakenError(
        `port ${wish.requested} is taken (another Wallboard running?): choose another with ${wish.flag}, or leave ${wish.flag} out to have a free one chosen`,
      );
    }
    if (wish.memory && wish.requested !== 0) await remember(wish.memory, port);
    return { port, note: null };
  }
  const remembered = wish.memory ? await rememberedPort(wish.memory) : undefined;
  const tries = [...new Set([remembered ?? wish.byDefault, wish.byDefault, 0])];
  const taken: number[] = [];
  for (const candidate of tries) {
    let port: number;
    try {
      port = await listen(candidate);
    } catch (error) {
      if (!isTaken(error)) throw error;
      taken.push(candidate);
      continue;
    }
    if (wish.memory && port !== remembered) await remember(wish.memory, port);
    const note =
      taken.length === 0
        ? null
        : `port ${taken.join(' and ')} ${taken.length === 1 ? 'is' : 'are'} taken (another Wallboard running?): using ${port}${wish.memory ? ', kept for the next start' : ''} (${wish.flag} chooses one)`;
    return { port, note };
  }
  // Port 0 is always tried last and never taken: the OS picks a free one.
  throw new Error('no port could be listened on');
}
