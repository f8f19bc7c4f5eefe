// The floor of bench/service: bare Fastify + socket.io in its own process, bundled by esbuild and
// run by plain Node as the built service is (bench/spawned.ts: port 0, a "listening on" line). It
// answers the bench's requests with no store, no validation and no token check: GET /health, a
// small JSON POST (a notification, sent to every connected socket before the answer, as the
// service does) and a small JSON PUT (a metric value). SIGTERM ends it (nothing to save).
// Usage: node <its bundle> [--port 0]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { Server } from 'socket.io';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });

interface NotificationBody {
  title?: string;
  message?: string;
  duration?: number;
}

const app = Fastify({ logger: false });
const io = new Server(app.server);
let eventId = 0;

app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Body: NotificationBody }>('/flows/:tag/notifications', async (request, reply) => {
  const notification = {
    id: randomUUID(),
    title: request.body.title ?? '',
    message: request.body.message ?? '',
    duration: request.body.duration ?? 5,
    created_at: new Date().toISOString(),
  };
  io.emit('event', { id: (eventId += 1), type: 'notification.created', notification });
  return reply.status(201).send(notification);
});
app.put<{ Body: { value?: unknown } }>('/flows/:tag/metrics', async (request) => ({
  value: request.body.value,
  updated_at: new Date().toISOString(),
}));

const address = await app.listen({ port: Number(values.port), host: '127.0.0.1' });
process.stdout.write(`Service floor listening on ${address}\n`);
