// A device agent alone in its own process, for tests that kill it: configured like the web
// player (flags, WALLBOARD_* environment), without serving the renderer.
import { parseArgs } from 'node:util';
import { createNodeAgent, loadAgentConfig } from '../node-agent';
import { consoleLogger } from '../node-edges';

const { values } = parseArgs({
  options: { server: { type: 'string' }, token: { type: 'string' }, 'data-dir': { type: 'string' } },
});
const dataDir = values['data-dir'];
if (!dataDir) throw new Error('--data-dir is required');
const config = await loadAgentConfig({ server: values.server, token: values.token }, dataDir);
const { agent } = createNodeAgent({
  config,
  dataDir,
  mediaBaseUrl: '/media/',
  appVersion: 'test',
  log: consoleLogger('agent-process'),
});
await agent.start();
