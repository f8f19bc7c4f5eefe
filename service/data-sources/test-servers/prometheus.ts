import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The real Prometheus (Debian's /usr/bin/prometheus) on 127.0.0.1, scraping every second a small
 * exporter whose gauges the test sets: what the Prometheus data source is tested, e2e-tested and
 * benchmarked against. Its data lives in a temporary folder removed at stop().
 */

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

/** Null when the binary is installed, else what to do about it (for a test's skip message). */
export function prometheusMissing(binary = PROMETHEUS_BINARY): string | null {
  return existsSync(binary) ? null : `${binary} is absent: apt-get install prometheus`;
}

export interface TestPrometheus {
  /** The base URL, `http://127.0.0.1:<port>`: a Prometheus source's URL. */
  url: string;
  /** The exporter's metrics page, `http://127.0.0.1:<port>/metrics`. */
  exporterUrl: string;
  /** Sets a gauge of the exporter; Prometheus has it at its next scrape (within a second). */
  set(name: string, value: number, labels?: Record<string, string>): void;
  /** Waits until `query` answers at least one sample whose value `accept` takes. */
  waitFor(query: string, accept?: (value: number) => boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface PrometheusOptions {
  binary?: string;
  /** 1 unless set. */
  scrapeSeconds?: number;
  /** How long the start may take before it fails: 30 s unless set. */
  startTimeoutMs?: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function labelText(labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/** A /metrics page in the text exposition format, one gauge per name. */
async function startExporter(): Promise<{ server: Server; url: string; set: TestPrometheus['set'] }> {
  const gauges = new Map<string, Map<string, number>>();
  const server = createServer((request, response) => {
    if (request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    const lines: string[] = [];
    for (const [name, series] of gauges) {
      lines.push(`# TYPE ${name} gauge`);
      for (const [labels, value] of series)
        lines.push(`${name}${labels} ${String(value).replace('Infinity', 'Inf')}`);
    }
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(`${lines.join('\n')}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`,
    set(name, value, labels = {}) {
      if (!NAME.test(name)) throw new Error(`${name} is not a metric name`);
      const series = gauges.get(name) ?? new Map<string, number>();
      series.set(labelText(labels), value);
      gauges.set(name, series);
    },
  };
}

/** A port free a moment ago (Prometheus binds it itself; a lost race fails the start, which is retried). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function queryValues(url: string, query: string): Promise<number[]> {
  const answer = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`, {
    signal: AbortSignal.timeout(2000),
  });
  const body = (await answer.json()) as { data?: { result?: { value?: [number, string] }[] } };
  return (body.data?.result ?? []).map((sample) => Number(sample.value?.[1]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(killer);
}

/** Starts the exporter and Prometheus, and resolves once a query of the exporter's `up` answers 1. */
export async function startPrometheus(options: PrometheusOptions = {}): Promise<TestPrometheus> {
  const binary = options.binary ?? PROMETHEUS_BINARY;
  const missing = prometheusMissing(binary);
  if (missing) throw new Error(missing);
  const scrape = options.scrapeSeconds ?? 1;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  const exporter = await startExporter();
  const folder = await mkdtemp(join(tmpdir(), 'wallboard-prometheus-'));
  const config = join(folder, 'prometheus.yml');
  await writeFile(
    config,
    [
      'global:',
      `  scrape_interval: ${scrape}s`,
      `  evaluation_interval: ${scrape}s`,
      'scrape_configs:',
      '  - job_name: exporter',
      '    static_configs:',
      `      - targets: ['${new URL(exporter.url).host}']`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;
  let url = '';
  const output: string[] = [];
  const cleanUp = async (): Promise<void> => {
    if (child) await stopProcess(child);
    await new Promise<void>((resolve) => exporter.server.close(() => resolve()));
    await rm(folder, { recursive: true, force: true });
  };
  const waitFor: TestPrometheus['waitFor'] = async (query, accept = () => true, timeoutMs = 15_000) => {
    const until = Date.now() + timeoutMs;
    let last = 'no answer';
    while (Date.now() < until) {
      try {
        const values = await queryValues(url, query);
        if (values.some(accept)) return;
        last = `values ${JSON.stringify(values)}`;
      } catch (error) {
        last = (error as Error).message;
      }
      await sleep(100);
    }
    throw new Error(`Prometheus did not answer ${query} as awaited within ${timeoutMs} ms (${last})`);
  };

  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      const started = spawn(
        binary,
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(folder, `data-${attempt}`)}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      child = started;
      started.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      // Ready once a query answers the exporter up; a lost race for the port ends the process instead.
      let ready = false;
      while (!ready && started.exitCode === null && Date.now() < deadline) {
        ready = await queryValues(url, 'up{job="exporter"}').then(
          (values) => values.includes(1),
          () => false,
        );
        if (!ready) await sleep(100);
      }
      if (ready) break;
      if (attempt === 3 || Date.now() >= deadline) {
        throw new Error(`Prometheus did not start: ${output.join('').slice(-2000) || 'no output'}`);
      }
      await stopProcess(started);
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }

  return { url, exporterUrl: exporter.url, set: exporter.set, waitFor, stop: cleanUp };
}
