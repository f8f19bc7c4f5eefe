import { setImmediate as turn } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { batched, type BusMessages } from './cluster';

// The bus between nodes sends the messages of one turn of the event loop as one (one NOTIFY on
// PostgreSQL), in their order, and no batch past what one NOTIFY carries.
it('sends the messages of one turn together, in order, and splits a batch before 6,000 bytes', async () => {
  const sent: BusMessages[] = [];
  const publish = batched((messages) => sent.push(messages));
  for (let n = 0; n < 50; n++) publish('realtime.event', { n });
  expect(sent).toHaveLength(0);
  await turn();
  expect(sent).toHaveLength(1);
  expect(sent[0]?.map(([, payload]) => (payload as { n: number }).n)).toEqual([...Array(50).keys()]);

  const large = 'x'.repeat(2_500);
  for (let n = 0; n < 5; n++) publish('operators.notice', { n, large });
  await turn();
  expect(sent.slice(1).map((messages) => messages.length)).toEqual([2, 2, 1]);
  for (const messages of sent) expect(JSON.stringify(messages).length).toBeLessThan(6_100);
  expect(
    sent
      .slice(1)
      .flat()
      .map(([, payload]) => (payload as { n: number }).n),
  ).toEqual([0, 1, 2, 3, 4]);
});
