import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP, parseCommand } from './cli-options';
import { startTestService, type AccountCall, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// The alert routes (docs/alerts.md): what they take, what they refuse (400 naming the field, and
// nothing stored), what they never show, and that one account neither sees nor uses another's.
// A service without --smtp-url: e-mail destinations are refused.

let service: TestService;
let b: { id: string; token: string; call: AccountCall };
const SECRET = 'a-shared-secret-of-the-receiver';

beforeAll(async () => {
  service = await startTestService({ clock: new FakeClock('2026-11-21T07:00:00.000Z') });
  b = await service.addAccount('B');
});
afterAll(() => service.close());

async function created(
  url: string,
  body: unknown,
  call: AccountCall = service.call,
): Promise<{ id: string }> {
  const response = await call('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const webhook = (call: AccountCall = service.call) =>
  created(
    '/alert-destinations',
    { kind: 'webhook', url: 'https://hooks.example.com/wallboard', secret: SECRET },
    call,
  );

const count = async (url: string, call: AccountCall = service.call) =>
  (await call('GET', url)).json<unknown[]>().length;

describe('destinations', () => {
  it('answers 201 with an id, and never shows a secret or a whole Slack URL again', async () => {
    const response = await service.call('POST', '/alert-destinations', {
      kind: 'webhook',
      name: 'NOC',
      url: 'https://hooks.example.com/wallboard',
      secret: SECRET,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      kind: 'webhook',
      name: 'NOC',
      url: 'https://hooks.example.com/wallboard',
      has_secret: true,
      created_at: '2026-11-21T07:00:00.000Z',
    });
    const slackUrl = 'https://hooks.slack.com/services/T000/B000/XXXXXXXXabcd';
    await created('/alert-destinations', { kind: 'slack', url: slackUrl });
    const listed = await service.call('GET', '/alert-destinations');
    expect(listed.body).not.toContain(SECRET);
    expect(listed.body).not.toContain(slackUrl);
    expect(listed.json()).toContainEqual(
      expect.objectContaining({
        kind: 'slack',
        url_hint: 'https://hooks.slack.com/…abcd',
        has_secret: false,
      }),
    );
  });

  it('refuses bad bodies naming the field, and stores none of them', async () => {
    const before = await count('/alert-destinations');
    const cases: [unknown, string][] = [
      [{ kind: 'pager', url: 'https://x.example' }, 'body.kind'],
      [{ kind: 'webhook', url: 'ftp://x.example', secret: SECRET }, 'body.url'],
      [{ kind: 'webhook', url: 'https://x.example', secret: 'short' }, 'body.secret'],
      [{ kind: 'webhook', url: 'https://x.example' }, 'body.secret'],
      [{ kind: 'email', to: ['not an address'] }, 'body.to.0'],
      [{ kind: 'email', to: [] }, 'body.to'],
      [{ kind: 'slack', url: 'https://x.example', secret: SECRET }, 'body.secret'],
      // Valid, but this service has no SMTP server to send it through.
      [{ kind: 'email', to: ['ops@example.com'] }, 'body.kind'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/alert-destinations', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const details = response.json().error.details as { path: string }[];
      expect(
        details.map((d) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await count('/alert-destinations')).toBe(before);
  });

  it('deletes with 204, then 404; the rules that sent to it no longer do', async () => {
    const hook = await webhook();
    const other = await webhook();
    const rule = await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { all: true },
      destination_ids: [hook.id, other.id],
    });
    expect((await service.call('DELETE', `/alert-destinations/${hook.id}`)).statusCode).toBe(204);
    expect((await service.call('DELETE', `/alert-destinations/${hook.id}`)).statusCode).toBe(404);
    const rules = (await service.call('GET', '/alert-rules')).json<
      { id: string; destination_ids: string[] }[]
    >();
    expect(rules.find((r) => r.id === rule.id)?.destination_ids).toEqual([other.id]);
    expect((await service.call('DELETE', `/alert-rules/${rule.id}`)).statusCode).toBe(204);
    expect((await service.call('DELETE', `/alert-rules/${rule.id}`)).statusCode).toBe(404);
  });
});

describe('rules', () => {
  it('takes each kind of target and lists them', async () => {
    const hook = await webhook();
    const group = await created('/groups', { name: 'Floor 2' });
    for (const target of [{ all: true }, { group_id: group.id }, { device_tag: 'lobby' }]) {
      const response = await service.call('POST', '/alert-rules', {
        event: 'device.offline',
        after_seconds: 300,
        target,
        destination_ids: [hook.id],
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        id: expect.any(String),
        after_seconds: 300,
        target,
        destination_ids: [hook.id],
      });
    }
    const listed = (await service.call('GET', '/alert-rules')).json<{ target: unknown }[]>();
    expect(listed.map((rule) => rule.target)).toEqual(
      expect.arrayContaining([{ all: true }, { group_id: group.id }, { device_tag: 'lobby' }]),
    );
  });

  it('refuses a bad target, an unknown group or destination, naming the field, and stores nothing', async () => {
    const hook = await webhook();
    const before = await count('/alert-rules');
    const valid = {
      event: 'device.offline',
      after_seconds: 60,
      target: { all: true },
      destination_ids: [hook.id],
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ target: {} }, 'body.target'],
      [{ target: { all: false } }, 'body.target'],
      [{ target: { all: true, device_tag: 'lobby' } }, 'body.target'],
      [{ target: { group_id: 'grp_nowhere' } }, 'body.target.group_id'],
      [{ destination_ids: [hook.id, 'adst_nowhere'] }, 'body.destination_ids.1'],
      [{ destination_ids: [] }, 'body.destination_ids'],
      [{ destination_ids: [hook.id, hook.id] }, 'body.destination_ids'],
      [{ after_seconds: 5 }, 'body.after_seconds'],
      [{ after_seconds: 60.5 }, 'body.after_seconds'],
      [{ event: 'device.online' }, 'body.event'],
    ];
    for (const [change, path] of cases) {
      const body = { ...valid, ...change };
      const response = await service.call('POST', '/alert-rules', body);
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      const details = response.json().error.details as { path: string }[];
      expect(
        details.map((d) => d.path),
        JSON.stringify(change),
      ).toContain(path);
    }
    expect(await count('/alert-rules')).toBe(before);
  });
});

describe('accounts', () => {
  it("neither lists nor uses nor deletes another account's destinations, rules, groups or alerts", async () => {
    const ours = await webhook();
    const group = await created('/groups', { name: 'A only' });
    const rule = await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { all: true },
      destination_ids: [ours.id],
    });
    for (const list of ['/alert-destinations', '/alert-rules', '/alerts']) {
      const response = await b.call('GET', list);
      expect(response.statusCode, list).toBe(200);
      expect(response.json(), list).toEqual([]);
    }
    const usingOurs = await b.call('POST', '/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { all: true },
      destination_ids: [ours.id],
    });
    expect(usingOurs.statusCode).toBe(400);
    expect(usingOurs.json().error.details).toEqual([
      { path: 'body.destination_ids.0', message: 'must name an existing alert destination' },
    ]);
    const theirs = await webhook(b.call);
    const onOurGroup = await b.call('POST', '/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { group_id: group.id },
      destination_ids: [theirs.id],
    });
    expect(onOurGroup.statusCode).toBe(400);
    expect(onOurGroup.json().error.details[0].path).toBe('body.target.group_id');
    expect((await b.call('DELETE', `/alert-destinations/${ours.id}`)).statusCode).toBe(404);
    expect((await b.call('DELETE', `/alert-rules/${rule.id}`)).statusCode).toBe(404);
    expect(await count('/alert-rules', b.call)).toBe(0);
    // A's are all still there, and A does not see B's destination.
    const aDestinations = (await service.call('GET', '/alert-destinations')).json<{ id: string }[]>();
    expect(aDestinations.map((d) => d.id)).toContain(ours.id);
    expect(aDestinations.map((d) => d.id)).not.toContain(theirs.id);
    expect((await service.call('GET', '/alert-rules')).json<{ id: string }[]>().map((r) => r.id)).toContain(
      rule.id,
    );
  });

  it('shows a token bound to a screen nothing of alerts', async () => {
    await webhook();
    expect((await service.call('POST', '/devices', { tag: 'kiosk' })).statusCode).toBe(201);
    const bound = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: 'kiosk' });
    const token = bound.json<{ token: string }>().token;
    for (const list of ['/alert-destinations', '/alert-rules', '/alerts']) {
      const response = await service.call('GET', list, undefined, token);
      expect(response.statusCode, list).toBe(200);
      expect(response.json(), list).toEqual([]);
    }
    expect(await count('/alert-destinations')).toBeGreaterThan(0);
  });
});

describe('the SMTP options', () => {
  const serve = (args: string[]) => {
    const command = parseCommand(args);
    if (command.kind !== 'serve') throw new Error(command.kind);
    return command.config.smtp;
  };

  it('reads --smtp-url and --smtp-from, none by default, and refuses what is not an SMTP server', () => {
    expect(serve([])).toBeNull();
    expect(serve(['--smtp-url', 'smtp://mail.example.com:25'])).toEqual({
      url: 'smtp://mail.example.com:25',
      from: 'wallboard@localhost',
    });
    expect(
      serve(['--smtp-url', 'smtps://u:p@mail.example.com', '--smtp-from', 'Wallboard <a@example.com>']),
    ).toEqual({
      url: 'smtps://u:p@mail.example.com',
      from: 'Wallboard <a@example.com>',
    });
    expect(() => serve(['--smtp-url', 'https://mail.example.com'])).toThrow('--smtp-url must be');
    expect(() => serve(['--smtp-url', 'smtp://mail.example.com', '--smtp-from', 'nobody'])).toThrow(
      '--smtp-from',
    );
    expect(() => serve(['--smtp-from', 'a@example.com'])).toThrow('--smtp-from needs --smtp-url');
    expect(HELP).toContain('--smtp-url <url>');
    expect(HELP).toContain('--smtp-from <address>');
  });
});
