import { templateBoard, type BoardTemplate } from './template';

// A morning in November 2026: fixed, so that the sample data never changes with the date.
const NOW = 1_795_420_800;

/** The open tickets from a help desk's API. */
const CODE = `// Count the open tickets in your help desk, for example:
//   const http = require('wallboard/http');
//   const open = await http.getJson('https://helpdesk.example.com/api/tickets/count?status=open', {
//     headers: { authorization: 'Bearer <your key>' },
//   });
//   const value = open.count;
// Until then, a run moves the sample count a little.
const last = typeof previous.value === 'number' ? previous.value : 37;
const value = Math.max(0, last + Math.round((Math.random() - 0.5) * 6));
return {
  title: 'Open tickets',
  icon: 'fa-ticket',
  value,
  delta: value - last,
  delta_type: 'inverse',
  label: value > 40 ? 'busy' : 'in the queue',
};`;

const row = (id: string, subject: string, priority: string, color: string, age: string) => [
  { value: id },
  { value: subject },
  { value: priority, color },
  { value: age, alignment: 'right' },
];

export const SUPPORT_QUEUE: BoardTemplate = {
  id: 'support-queue',
  name: 'Support queue',
  description: 'Open tickets, the longest wait, satisfaction, the SLA, the queue itself and who solved what.',
  board: templateBoard({ name: 'Support queue', theme: 'dark' }, [
    {
      tag: 'open',
      variant: 'value',
      at: [0, 0, 8, 5],
      data: {
        title: 'Open tickets',
        icon: 'fa-ticket',
        value: 37,
        delta: -4,
        delta_type: 'inverse',
        label: 'in the queue',
      },
    },
    {
      tag: 'wait',
      variant: 'value',
      at: [8, 0, 8, 5],
      data: {
        title: 'Longest wait',
        icon: 'fa-clock',
        value: '42 min',
        label_color: '#d29922',
        label: 'ticket #4821',
      },
    },
    {
      tag: 'csat',
      variant: 'value',
      at: [16, 0, 8, 5],
      data: {
        title: 'Satisfaction',
        icon: 'fa-face-smile',
        value: 94,
        value_type: 'percent',
        label: 'last 7 days',
      },
    },
    {
      tag: 'sla',
      variant: 'gauge',
      at: [24, 0, 8, 7],
      data: {
        title: 'Answered within SLA',
        value: 88,
        min: 0,
        max: 100,
        value_type: 'percent',
        range: [
          { from: 0, to: 80, color: '#f85149' },
          { from: 80, to: 90, color: '#d29922' },
          { from: 90, to: 100, color: '#3fb950' },
        ],
      },
    },
    {
      tag: 'queue',
      variant: 'table',
      at: [0, 5, 24, 9],
      data: {
        title: 'Waiting longest',
        headers: ['Ticket', 'Subject', 'Priority', 'Waiting'],
        cells: [
          row('#4821', 'Cannot sign in after password reset', 'High', '#f85149', '42 min'),
          row('#4826', 'Invoice shows the wrong address', 'Normal', '#d29922', '31 min'),
          row('#4830', 'Export to CSV is empty', 'Normal', '#d29922', '18 min'),
          row('#4833', 'How do I add a second user?', 'Low', '#3fb950', '6 min'),
        ],
      },
    },
    {
      tag: 'channels',
      variant: 'piechart',
      at: [24, 7, 8, 7],
      data: { title: 'By channel', values: [48, 31, 21], labels: ['E-mail', 'Chat', 'Phone'] },
    },
    {
      tag: 'updates',
      variant: 'timeline',
      at: [0, 14, 16, 6],
      data: {
        title: 'Team',
        messages: [
          { from: 'Priya', text: 'Taking the sign-in tickets', timestamp: NOW - 120 },
          { from: 'Tom', text: 'Billing fix is live, closing #4790 to #4797', timestamp: NOW - 1800 },
        ],
      },
    },
    {
      tag: 'solved',
      variant: 'barchart',
      at: [16, 14, 16, 6],
      data: {
        title: 'Solved today',
        bars: [
          { label: 'Priya', value: 14 },
          { label: 'Tom', value: 11 },
          { label: 'Ana', value: 9 },
          { label: 'Kenji', value: 7 },
        ],
        sort: 'desc',
      },
    },
  ]),
  script: { name: 'open tickets', interval: '1m', feeds: 'open', code: CODE },
};
