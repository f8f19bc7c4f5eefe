import { templateBoard, type BoardTemplate } from './template';

// A morning in November 2026: fixed, so that the sample data never changes with the date.
const NOW = 1_795_420_800;

/** Checks polled over HTTP: what an operations team watches first. */
const CODE = `// Each check is a page of yours that answers 2xx when the service is well.
// Fill in your own, then enable the script: it polls them every minute.
const CHECKS = [
  // { label: 'API', url: 'https://api.example.com/health' },
];
if (CHECKS.length === 0) {
  // No checks yet: the sample data stays as it is.
  return previous;
}
const http = require('wallboard/http');
const statuses = [];
for (const check of CHECKS) {
  let color = '#f85149';
  try {
    const answer = await http.get(check.url, { timeout: 5 });
    if (answer.status < 300) color = '#3fb950';
    else if (answer.status < 500) color = '#d29922';
  } catch (error) {
    console.warn(check.label + ': ' + error.message);
  }
  statuses.push({ label: check.label, color });
}
return { title: 'Checks', statuses };`;

export const OPERATIONS_STATUS: BoardTemplate = {
  id: 'operations-status',
  name: 'Operations status',
  description: 'Health checks, hosts up and down, load, request rates, the incident log and announcements.',
  board: templateBoard({ name: 'Operations status', theme: 'dark' }, [
    {
      tag: 'checks',
      variant: 'status',
      at: [0, 0, 12, 6],
      data: {
        title: 'Checks',
        statuses: [
          { label: 'API', color: '#3fb950' },
          { label: 'Web', color: '#3fb950' },
          { label: 'Database', color: '#d29922' },
          { label: 'Queue', color: '#3fb950' },
          { label: 'Mail', color: '#3fb950' },
          { label: 'VPN', color: '#f85149' },
        ],
      },
    },
    {
      tag: 'hosts',
      variant: 'upstatus',
      at: [12, 0, 10, 6],
      data: {
        title: 'Hosts',
        up: ['web-1', 'web-2', 'api-1', 'db-1'],
        down: ['mail-1'],
        uptime: 99.7,
        last_down: NOW - 720,
      },
    },
    {
      tag: 'cpu',
      variant: 'gauge',
      at: [22, 0, 10, 6],
      data: {
        title: 'CPU',
        value: 64,
        min: 0,
        max: 100,
        value_type: 'percent',
        range: [
          { from: 0, to: 60, color: '#3fb950' },
          { from: 60, to: 85, color: '#d29922' },
          { from: 85, to: 100, color: '#f85149' },
        ],
      },
    },
    {
      tag: 'requests',
      variant: 'graph',
      at: [0, 6, 20, 6],
      data: {
        title: 'Requests per minute',
        renderer: 'line',
        x_labels: ['08:00', '08:10', '08:20', '08:30', '08:40', '08:50', '09:00'],
        series: [
          { label: 'OK', values: [1500, 1620, 1873, 1646, 2019, 2210, 1980], color: '#2f81f7' },
          { label: 'Errors', values: [12, 9, 31, 14, 8, 11, 10], color: '#f85149' },
        ],
      },
    },
    {
      tag: 'servers',
      variant: 'servers',
      at: [20, 6, 12, 6],
      data: {
        title: 'Servers',
        servers: [
          { name: 'web-1', values: [35, 52, 20], labels: ['cpu', 'mem', 'disk'] },
          { name: 'web-2', values: [41, 48, 22], labels: ['cpu', 'mem', 'disk'] },
          { name: 'db-1', values: [78, 81, 64], labels: ['cpu', 'mem', 'disk'] },
        ],
        orange: 70,
        red: 90,
      },
    },
    {
      tag: 'incidents',
      variant: 'log',
      at: [0, 12, 20, 6],
      data: {
        title: 'Incidents',
        messages: [
          { text: 'VPN gateway unreachable from site B', timestamp: NOW - 300, color: '#f85149' },
          { text: 'Database replication lag above 5 s', timestamp: NOW - 2400, color: '#d29922' },
          { text: 'api v2.14.0 rolled out', timestamp: NOW - 7200, color: '#3fb950' },
        ],
      },
    },
    {
      tag: 'uptime',
      variant: 'value',
      at: [20, 12, 12, 6],
      data: {
        title: 'Uptime',
        value: 99.95,
        value_type: 'percent',
        rounding: 2,
        label: 'last 30 days',
        sparkline: [99.9, 99.8, 99.95, 99.99, 99.97, 99.95],
      },
    },
    {
      tag: 'announcements',
      variant: 'tickertape',
      at: [0, 18, 32, 2],
      data: {
        messages: [
          'Change freeze from Friday 18:00 until Monday 08:00',
          'On call this week: Priya (platform), Tom (network)',
        ],
      },
    },
  ]),
  script: { name: 'checks', interval: '1m', feeds: 'checks', code: CODE },
};
