// Preloaded by bench/service into the service and into its floor alike (`node --import
// ./bench/loop-probe.ts`): the event loop's delay measured inside the process without a line of
// the product's code, told to the bench over the IPC channel it was spawned with. Plain Node runs
// this file as it is. Messages: 'loop:reset' starts a window, 'loop:report' answers its figures.
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Sampling every 2 ms: a stall of the loop shows as a sample late by about its length. */
const histogram = monitorEventLoopDelay({ resolution: 2 });
histogram.enable();

process.on('message', (message) => {
  if (message === 'loop:reset') histogram.reset();
  else if (message === 'loop:report') {
    const ms = (ns: number) => ns / 1e6;
    process.send?.({
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    });
  }
});
// The channel must not keep the process alive: it ends on SIGTERM as it would without the probe.
process.channel?.unref();
