import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnService, type ServiceProcess } from '../service/service-process';
import { freePort } from '../src/node/testing/free-ports';

const WEB_PLAYER = fileURLToPath(new URL('../dist/web-player/main.mjs', import.meta.url));

const OFFLINE_SERVICE = ['--map-tiles', 'none', '--weather-url', 'http://127.0.0.1:9'];

/**
 * The whole chain on loopback ports: the real service in its own process and a device (the web
 * player: agent plus page server) in another, driven only through the service's HTTP API. Both
 * run from their bundles in dist/, as `npm run service` and `npm run start:web` run them
 * (`npm run test:e2e` builds what is stale first).
 */
export class Stack {
  readonly admin = `e2e-admin-${Math.random().toString(36).slice(2)}-token`;
  service: ServiceProcess | null = null;
  player: ChildProcess | null = null;
  playerUrl = '';
  /** What the device process printed: its log, for a failing test to show. */
  playerOutput = '';
  private port = 0;

  private constructor(
    readonly dir: string,
    readonly tag: string,
    /** More options of the service (`npm run service -- --help`), such as where its map tiles come from. */
    private readonly serviceArgs: readonly string[],
  ) {}

  /**
   * `serviceArgs` replace the defaults, which keep the service off the internet: no map tiles, and
   * a forecast API on a closed loopback port.
   */
  static async start(tag: string, serviceArgs: readonly string[] = OFFLINE_SERVICE): Promise<Stack> {
    const stack = new Stack(await mkdtemp(join(tmpdir(), 'wallboard-e2e-')), tag, serviceArgs);
    stack.port = await freePort();
    await stack.startService();
    return stack;
  }

  get serviceUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the service on the same port and data folder. */
  async startService(): Promise<void> {
    this.service = await spawnService(
      ['--port', String(this.port), '--data', join(this.dir, 'service'), ...this.serviceArgs],
      { WALLBOARD_ADMIN_TOKEN: this.admin },
      'built',
    );
  }

  async killService(): Promise<void> {
    await this.service?.stop('SIGKILL');
  }

  /**
   * Starts the device with an affiliated token: what a real screen gets. `unpaired`: with the
   * service's address only, as a new screen starts (it pairs by a code, and gets its tag then).
   */
  async startPlayer(options: { unpaired?: boolean } = {}): Promise<string> {
    const credential = options.unpaired
      ? []
      : [
          '--token',
          (
            await this.api<{ token: string }>('POST', '/account/tokens', {
              scope: 'affiliated',
              name: `screen ${this.tag}`,
            })
          ).token,
          '--tag',
          this.tag,
        ];
    const child = spawn(
      process.execPath,
      [
        ...[WEB_PLAYER, '--server', this.serviceUrl, ...credential],
        ...['--name', `Screen ${this.tag}`, '--port', '0', '--data-dir', join(this.dir, 'device')],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.player = child;
    this.playerUrl = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.playerOutput += chunk.toString();
        const match = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(this.playerOutput);
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) =>
        reject(new Error(`the web player exited with ${code}: ${this.playerOutput}`)),
      );
    });
    return this.playerUrl;
  }

  /**
   * Kills the device's process at once, as a screen losing its power: no goodbye, its socket just
   * drops. `startPlayer()` brings it back (same tag and data folder).
   */
  async killPlayer(): Promise<void> {
    const player = this.player;
    if (!player || player.exitCode !== null || player.signalCode !== null) return;
    const exited = once(player, 'exit');
    player.kill('SIGKILL');
    await exited;
  }

  /** Until the service says the device is online (its first heartbeat came), or throws after `ms`. */
  async waitOnline(ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const device = await this.api<{ online: boolean }>('GET', `/devices/${this.tag}`).catch(() => null);
      if (device?.online) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`device ${this.tag} did not come online within ${ms} ms: ${this.playerOutput}`);
  }

  async api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.serviceUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.admin}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  /**
   * A playlist of one board named `name` whose value widget shows the flow `flowTag` (with
   * `value`) over the whole grid; returns the playlist's id.
   */
  async boardPlaylist(name: string, flowTag: string, value: number, duration: number): Promise<string> {
    const board = await this.api<{ id: string }>('POST', '/boards/import', {
      name,
      widgets: [
        {
          flow: { tag: flowTag, data: { value } },
          variant: 'value',
          column: 0,
          row: 0,
          width: 16,
          height: 10,
        },
      ],
    });
    const playlist = await this.api<{ id: string }>('POST', '/playlists', {
      name,
      items: [{ type: 'board', board_id: board.id, duration }],
    });
    return playlist.id;
  }

  async stop(): Promise<void> {
    if (this.player && this.player.exitCode === null && this.player.signalCode === null) {
      const exited = once(this.player, 'exit');
      this.player.kill('SIGTERM');
      await exited;
    }
    await this.service?.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
