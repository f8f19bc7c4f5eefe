// The heartbeats of bench/fleet --nodes: in a worker thread of their own, so that their latency is
// not the time the bench's thousands of sockets keep its main thread busy. Each device sends one
// every `heartbeat` seconds, spread over the interval; the main thread asks for the latencies
// measured since its last `reset`.
import { parentPort, workerData } from 'node:worker_threads';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';

const { url, token, devices, heartbeat, prefix } = workerData as {
  url: string;
  token: string;
  devices: number;
  heartbeat: number;
  prefix: string;
};
let latencies: number[] = [];
let failures = 0;
const body = JSON.stringify(sampleHeartbeat('board'));

async function beat(index: number): Promise<void> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/devices/${prefix}-${index}/heartbeat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    if (response.ok) latencies.push(performance.now() - started);
    else failures += 1;
  } catch {
    failures += 1;
  }
}

for (let i = 0; i < devices; i++) {
  setTimeout(
    () => {
      void beat(i);
      setInterval(() => void beat(i), heartbeat * 1000);
    },
    (i * heartbeat * 1000) / devices,
  );
}

parentPort?.on('message', (message: 'reset' | 'report') => {
  if (message === 'reset') {
    latencies = [];
    failures = 0;
  } else {
    parentPort?.postMessage({ latencies, failures });
  }
});
