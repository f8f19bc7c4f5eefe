// The floor of bench/overrides: bare Fastify + socket.io in its own process, bundled by esbuild and
// run by plain Node as the built service is (bench/spawned.ts: port 0, a "listening on" line). The
// same round trip as an override with no store, no token and no settings to resolve: a screen
// says hello and is put in one room; POST /overrides keeps the override in memory and emits one
// `device.changed` to that room before its answer; GET /devices/:tag/settings answers a small JSON
// with it; DELETE /overrides/:id forgets it and emits again. SIGTERM ends it (nothing to save).
// Usage: node <its bundle> [--port 0]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { Server } from 'socket.io';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });

interface OverrideBody {
  title?: string;
  message?: string;
}

const ROOM = 'screens';
const app = Fastify({ logger: false });
const io = new Server(app.server);
let eventId = 0;
let current: { id: string; title: string; message: string; created_at: string } | null = null;

io.on('connection', (socket) => {
  socket.on('hello', async (_hello: unknown, ack: (answer: unknown) => void) => {
    await socket.join(ROOM);
    ack({ resync: true, events: [], last_event_id: eventId });
  });
});
// One event for the whole room, encoded once: the least a server can do to tell N screens.
const tell = () => io.to(ROOM).emit('event', { id: (eventId += 1), type: 'device.changed', device_tag: '*' });

app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Body: OverrideBody }>('/overrides', async (request, reply) => {
  current = {
    id: randomUUID(),
    title: request.body.title ?? '',
    message: request.body.message ?? '',
    created_at: new Date().toISOString(),
  };
  tell();
  return reply.status(201).send(current);
});
app.delete<{ Params: { id: string } }>('/overrides/:id', async (request, reply) => {
  if (current?.id === request.params.id) current = null;
  tell();
  return reply.status(204).send();
});
app.get<{ Params: { tag: string } }>('/devices/:tag/settings', async (request) => ({
  device_tag: request.params.tag,
  override: current,
}));

const address = await app.listen({ port: Number(values.port), host: '127.0.0.1' });
process.stdout.write(`Override floor listening on ${address}\n`);
