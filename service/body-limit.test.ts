// A body over the limit, sent by ordinary clients to the real server on loopback: each must read
// the 413, not a connection cut under it while it still sends (what undici's fetch saw as EPIPE).
import { execFile, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

const run = promisify(execFile);
const BODY_LIMIT = 64 * 1024;
const MEDIA_MAX_BYTES = 1024 * 1024;
/** Bounds of the drain made small, so that the tests of the bounds are quick. */
const LINGER_MS = 1_000;
const LINGER_BYTES = 24 * 1024 * 1024;
/** Well over both limits, and under the drain's byte bound: a whole body is read and discarded. */
const BIG = 8 * 1024 * 1024;

let service: TestService;
let base: string;
let dir: string;
beforeAll(async () => {
  service = await startTestService({
    config: { bodyLimit: BODY_LIMIT, mediaMaxBytes: MEDIA_MAX_BYTES },
    linger: { ms: LINGER_MS, bytes: LINGER_BYTES },
  });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'wallboard-body-limit-'));
  await writeFile(join(dir, 'big.json'), `{"tag":"${'x'.repeat(BIG)}"}`);
  await writeFile(join(dir, 'big.png'), Buffer.alloc(BIG, 7));
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${ADMIN_SECRET}` };
const has = (tool: string, ...args: string[]) => spawnSync(tool, args).status === 0;
const hasGo = has('go', 'version');
const hasRuby = has('ruby', '--version');

describe('a body over the limit is answered 413, read by', () => {
  // In a process of its own, as a client is: sharing the server's event loop, fetch would finish
  // sending before the server even read the head, and see its 413 whatever the server did.
  it('fetch (undici), JSON and a media upload, five times each', async () => {
    const script = `
const [base, authorization, size] = process.argv.slice(1);
const post = (path, init) =>
  fetch(base + path, { method: 'POST', ...init, headers: { authorization, ...init.headers } }).then(
    async (response) => response.status + ' ' + (await response.json()).error.code,
    (error) => 'failed: ' + error.message + ' ' + (error.cause?.message ?? ''),
  );
const json = '{"tag":"' + 'x'.repeat(Number(size)) + '"}';
const form = () => {
  const data = new FormData();
  data.append('file', new Blob([Buffer.alloc(Number(size), 7)]), 'big.png');
  return data;
};
(async () => {
  for (let i = 0; i < 5; i++) {
    console.log(await post('/flows', { headers: { 'content-type': 'application/json' }, body: json }));
    console.log(await post('/media', { body: form() }));
  }
  // The connection the refusals came on serves the next request.
  console.log((await fetch(base + '/health')).status);
})();`;
    const { stdout } = await run(process.execPath, ['-e', script, base, auth.authorization, String(BIG)]);
    expect(stdout.trim().split('\n')).toEqual([...Array<string>(10).fill('413 payload_too_large'), '200']);
  }, 60_000);

  it('curl, JSON and a media upload', async () => {
    const curl = (...args: string[]) =>
      run('curl', [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-H',
        `authorization: ${auth.authorization}`,
        ...args,
      ]);
    const json = await curl(
      '-H',
      'content-type: application/json',
      '--data-binary',
      `@${join(dir, 'big.json')}`,
      `${base}/flows`,
    );
    expect(json.stdout).toBe('413');
    const media = await curl('-F', `file=@${join(dir, 'big.png')}`, `${base}/media`);
    expect(media.stdout).toBe('413');
  });

  it.skipIf(!hasGo)(
    'Go net/http, JSON and a media upload',
    async () => {
      await writeFile(
        join(dir, 'post.go'),
        `package main

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
)

func post(url, contentType string, body []byte) {
	request, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	request.Header.Set("authorization", os.Args[2])
	request.Header.Set("content-type", contentType)
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		fmt.Println(err)
		return
	}
	response.Body.Close()
	fmt.Println(response.StatusCode)
}

func main() {
	post(os.Args[1]+"/flows", "application/json", append(append([]byte("{\\"tag\\":\\""), bytes.Repeat([]byte("x"), ${BIG})...), '"', '}'))
	var form bytes.Buffer
	writer := multipart.NewWriter(&form)
	part, _ := writer.CreateFormFile("file", "big.png")
	part.Write(bytes.Repeat([]byte{7}, ${BIG}))
	writer.Close()
	post(os.Args[1]+"/media", writer.FormDataContentType(), form.Bytes())
}
`,
      );
      const { stdout } = await run('go', ['run', join(dir, 'post.go'), base, auth.authorization], {
        env: { ...process.env, GOCACHE: join(tmpdir(), 'wallboard-go-cache'), GOFLAGS: '-mod=mod' },
      });
      expect(stdout.trim().split('\n')).toEqual(['413', '413']);
    },
    120_000,
  );

  it.skipIf(!hasRuby)(
    "Ruby's Net::HTTP, JSON",
    async () => {
      const script = `
require 'net/http'
uri = URI(ARGV[0] + '/flows')
request = Net::HTTP::Post.new(uri, 'content-type' => 'application/json', 'authorization' => ARGV[1])
request.body = '{"tag":"' + ('x' * ${BIG}) + '"}'
begin
  puts Net::HTTP.start(uri.hostname, uri.port) { |http| http.request(request) }.code
rescue => error
  puts error.class, error.message
end`;
      const { stdout } = await run('ruby', ['-e', script, base, auth.authorization]);
      expect(stdout.trim()).toBe('413');
    },
    60_000,
  );
});

/** Opens a raw connection, sends `head`, then the body in `chunk`s for ever: until the server cuts it. */
async function sendForever(head: string, chunk: Buffer, pauseMs: number) {
  const { port } = service.app.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(head);
  const started = performance.now();
  let open = true;
  // Not events.once: it would reject on the reset that cuts a client still sending.
  const cut = new Promise<number>((resolve) =>
    socket.once('close', () => {
      open = false;
      resolve(performance.now() - started);
    }),
  );
  let sent = 0;
  // Never stops by itself; the limit is only there so that a server that never cuts fails the test.
  while (open && performance.now() - started < 20_000) {
    sent += chunk.length;
    if (!socket.write(chunk))
      await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), cut]);
    // A slow sender by the wall clock, on purpose: the server's time bound is what is measured.
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  socket.destroy();
  // What the client handed its socket, less what never left it: the bytes the server was sent.
  return { ms: await cut, sent: sent - socket.writableLength, status: answer.split(' ')[1] };
}

const chunkedHead = (path: string) =>
  `POST ${path} HTTP/1.1\r\nhost: localhost\r\nauthorization: ${auth.authorization}\r\n` +
  'content-type: application/json\r\ncontent-length: 100000000000\r\n\r\n';

describe('the rest of a refused body is read for a bounded time and bytes', () => {
  it('cuts a client that keeps sending slowly once the time bound has passed', async () => {
    const { ms, sent, status } = await sendForever(chunkedHead('/flows'), Buffer.alloc(1024, 120), 20);
    expect(status).toBe('413');
    expect(ms).toBeGreaterThanOrEqual(LINGER_MS);
    expect(ms).toBeLessThan(LINGER_MS + 1_000);
    expect(sent).toBeLessThan(LINGER_BYTES);
  });

  it('cuts a client that keeps sending fast once the byte bound is read', async () => {
    const { ms, sent, status } = await sendForever(chunkedHead('/flows'), Buffer.alloc(256 * 1024, 120), 0);
    expect(status).toBe('413');
    // Cut for the bytes, well before the time bound; what the kernels buffer on top is some MB.
    expect(ms).toBeLessThan(LINGER_MS);
    expect(sent).toBeGreaterThanOrEqual(LINGER_BYTES);
    expect(sent).toBeLessThan(LINGER_BYTES + 16 * 1024 * 1024);
  });
});
