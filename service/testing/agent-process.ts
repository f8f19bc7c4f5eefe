import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ADMIN_SECRET } from '../test-support';

/**
 * The real device agent in a process of its own (src/agent/testing/agent-process.ts) on the
 * service at `url`, as device `tag`, heartbeats every 60 s (so that only its socket tells the
 * service it is there): what presence tests kill or stop. `output` is everything it printed.
 */
export function startAgentProcess(
  url: string,
  dataDir: string,
  tag: string,
): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'src/agent/testing/agent-process.ts'],
      ...['--server', url, '--token', ADMIN_SECRET, '--data-dir', dataDir],
    ],
    { env: { ...process.env, WALLBOARD_TAG: tag, WALLBOARD_HEARTBEAT: '60' } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}
