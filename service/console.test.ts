import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from '../src/shared/console-page';
import { customFramePolicy } from '../src/shared/custom-frame';
import { startTestService, type TestService } from './test-support';

const PAGE = `<!doctype html><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><script type="module" src="/console/assets/app-1.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>`;

describe('the console is served by the service', () => {
  let dir: string;
  let service: TestService;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wallboard-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), PAGE);
    await writeFile(join(dir, 'assets', 'app-1.js'), 'export {};');
    await writeFile(join(dir, 'custom-frame.html'), '<!doctype html><title>frame</title>');
    await writeFile(join(dir, 'custom-frame.js'), 'void 0;');
    service = await startTestService({ consoleDir: dir });
  });
  afterAll(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers its page at / and at every console path, without a token', async () => {
    for (const url of ['/', '/console', '/console/', '/console/screens/lobby', '/console/sign-in']) {
      const response = await service.call('GET', url, undefined, null);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('/console/assets/app-1.js');
    }
  });

  it('gives every answer a fresh nonce, the only way its policy lets styles and scripts in', async () => {
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const response = await service.call('GET', '/console/', undefined, null);
        const policy = String(response.headers['content-security-policy']);
        const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
        expect(nonce).toBeTruthy();
        expect(response.body).not.toContain(CSP_NONCE_PLACEHOLDER);
        expect(response.body).toContain(`nonce="${nonce}"`);
        expect(policy).not.toContain('unsafe-inline');
        expect(policy).not.toContain('unsafe-eval');
        expect(policy).toContain("frame-ancestors 'none'");
        expect(response.headers['cache-control']).toBe('no-store');
        return nonce;
      }),
    );
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("serves the custom widget's host pages under their own policy, for the editor's previews", async () => {
    const page = await service.call('GET', '/console/custom-frame.html', undefined, null);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(customFramePolicy('custom-frame.html'));
    expect(page.body).toContain('<title>frame</title>');
    const script = await service.call('GET', '/console/custom-frame.js', undefined, null);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    const console = await service.call('GET', '/console/', undefined, null);
    expect(console.headers['content-security-policy']).toContain("frame-src 'self'");
  });

  it('serves its files for good, and a missing file is a 404', async () => {
    const file = await service.call('GET', '/console/assets/app-1.js', undefined, null);
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toContain('immutable');
    expect(file.headers['content-type']).toMatch(/javascript/);
    const missing = await service.call('GET', '/console/assets/gone.js', undefined, null);
    expect(missing.statusCode).toBe(404);
    const escape = await service.call('GET', '/console/assets/..%2f..%2fetc%2fpasswd', undefined, null);
    expect(escape.statusCode).toBe(404);
  });

  it('leaves the API its paths', async () => {
    const devices = await service.call('GET', '/devices', undefined, null);
    expect(devices.statusCode).toBe(401);
    expect(devices.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });
});

describe('a service whose console is not built', () => {
  it('says how to build it', async () => {
    const service = await startTestService({ consoleDir: join(tmpdir(), 'wallboard-no-console-here') });
    try {
      const response = await service.call('GET', '/', undefined, null);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'not_found', message: /npm run build/ } });
    } finally {
      await service.close();
    }
  });
});
