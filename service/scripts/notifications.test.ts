import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Flow } from '../../src/shared/flow';
import {
  eventsAfter as loggedAfter,
  lastEventId as lastLoggedId,
  startTestService,
  type TestService,
} from '../test-support';
import { scriptCalls } from '../testing/script-calls';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createFlow(tag: string, variant: string): Promise<Flow> {
  const response = await service.call('POST', '/flows', { tag, variant });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const { createScript, runNow } = scriptCalls(() => service);

const lastEventId = () => lastLoggedId(service.db);
const eventsAfter = (mark: number) => loggedAfter(service.db, mark);

describe('wallboard/notifications in a script', () => {
  it('posts to a channel by tag or to a flow’s channel, publishing notification.created', async () => {
    await createFlow('noticed', 'value');
    const script = await createScript({
      name: 'notifier',
      code: `
        const { post } = require('wallboard/notifications');
        const a = await post('default', '', 'Deploy', 'api is live', '1m', 'rocket');
        const b = await post('', 'noticed', 'Flow', 'via its flow', 5);
        const c = await post('no-such-channel', '', 'Lost', 'nowhere', 5);
        console.log(a, b, c);`,
    });
    const mark = await lastEventId();
    const run = await runNow(script.id);
    expect(run.outcome).toBe('ok');
    expect(run.logs).toEqual([
      '[warn] notifications.post: no channel has the tag "no-such-channel"',
      'true true false',
    ]);
    const events = await eventsAfter(mark);
    expect(events.map((event) => [event.type, event.rooms])).toEqual([
      ['notification.created', ['channel:ch_default']],
      ['notification.created', ['channel:ch_default']],
    ]);
    expect(events[0]!.payload.notification).toMatchObject({
      channel_id: 'ch_default',
      title: 'Deploy',
      message: 'api is live',
      icon: 'rocket',
      duration: 60,
      sound_url: 'default',
    });
    const listed = (await service.call('GET', '/channels/ch_default/notifications?limit=2')).json();
    expect(listed.map((n: { title: string }) => n.title)).toEqual(['Flow', 'Deploy']);
  });

  it('finishes a post the script did not wait for', async () => {
    const script = await createScript({
      name: 'fire and forget',
      code: "require('wallboard/notifications').post('default', '', 'Unawaited', 'still sent', 5);",
    });
    expect((await runNow(script.id)).outcome).toBe('ok');
    const listed = (await service.call('GET', '/channels/ch_default/notifications?limit=1')).json();
    expect(listed[0]).toMatchObject({ title: 'Unawaited', message: 'still sent' });
  });

  it('throws an error naming the broken argument', async () => {
    const cases: [string, RegExp][] = [
      ["post('default', 'noticed', 'T', 'M', 5)", /exactly one of channel and flow/],
      ["post('default', '', '', 'M', 5)", /title must not be empty/],
      ["post('default', '', 'T', 'x'.repeat(256), 5)", /message must be at most 255 characters/],
      ["post('default', '', 'T', 'M', '5 minutes')", /duration must be a number of seconds or a string/],
      ["post('default', '', 'T', 'M', 5, 'NOT AN ICON')", /icon must be/],
      [
        "post('default', '', 'T', 'M', 5, '', 'ftp://example.com/a.mp3')",
        /sound must be "default", an http\(s\) URL or a library medium/,
      ],
      ["post('default', '', 'T', 'M', 5, '', 'http://example.com/a.mp3')", /does not allow plain http media/],
    ];
    for (const [call, error] of cases) {
      const script = await createScript({
        name: 'bad post',
        code: `const { post } = require('wallboard/notifications');\nawait ${call};`,
      });
      const run = await runNow(script.id);
      expect(run.outcome, call).toBe('error');
      expect(run.error, call).toMatch(error);
      expect(run.error, call).toMatch(/^Error: notifications\.post: /);
    }
    const caught = await createScript({
      name: 'caught',
      code: "try { await require('wallboard/notifications').post('', '', 'T', 'M', 5) } catch (e) { return e.message }",
    });
    expect(await runNow(caught.id)).toMatchObject({ outcome: 'ok', error: null });
  });
});
