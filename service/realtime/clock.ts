import type { Socket } from 'socket.io';
import type { ClockAnswer } from '../../src/shared/sync';
import { TokenBucket, type Rate } from '../http/rate-limit';

/**
 * Clock pings a socket may send: a device samples a burst of a few at its connection, then one
 * every few seconds (src/agent/clock-sampler.ts). Beyond this, a ping is not answered: the
 * device's filter simply has one sample fewer.
 */
export const CLOCK_RATE: Rate = { burst: 16, perSecond: 2 };

/**
 * Answers a socket's `clock` pings with the service's time (docs/sync.md), at once and without a
 * query, so the round trip the device measures is the network's and no more.
 */
export function answerClockPings(socket: Socket, now: () => Date): void {
  const bucket = new TokenBucket(CLOCK_RATE);
  socket.on('clock', (ack: unknown) => {
    if (typeof ack !== 'function' || !bucket.take()) return;
    const answer: ClockAnswer = { now: now().getTime() };
    (ack as (answer: ClockAnswer) => void)(answer);
  });
}
