import { templateBoard, type BoardTemplate } from './template';

/** Active users from an analytics API. */
const CODE = `// Read the active users from your analytics, for example:
//   const http = require('wallboard/http');
//   const stats = await http.getJson('https://analytics.example.com/api/active-users', {
//     headers: { authorization: 'Bearer <your key>' },
//   });
//   const value = stats.count;
// Until then, a run walks the sample figure a little.
const last = typeof previous.value === 'number' ? previous.value : 18450;
const value = Math.max(0, Math.round(last + (Math.random() - 0.45) * 400));
const sparkline = (Array.isArray(previous.sparkline) ? previous.sparkline : []).concat(value).slice(-20);
return { title: 'Active users', icon: 'fa-user', value, abbreviate: true, rounding: 1, delta: value - last, delta_type: 'absolute', sparkline };`;

export const KPI_WALL: BoardTemplate = {
  id: 'kpi-wall',
  name: 'KPI wall',
  description:
    'The company in numbers: revenue, users, churn, NPS, growth, capacity, goals, cash and segments.',
  board: templateBoard({ name: 'KPI wall', theme: 'dark' }, [
    {
      tag: 'mrr',
      variant: 'value',
      at: [0, 0, 8, 5],
      data: {
        title: 'Monthly revenue',
        value: 1_234_567,
        value_type: 'currency',
        abbreviate: true,
        rounding: 1,
        delta: 4.2,
        delta_type: 'percent',
        sparkline: [3, 5, 4, 6, 8, 7, 9, 12],
      },
    },
    {
      tag: 'active-users',
      variant: 'value',
      at: [8, 0, 8, 5],
      data: {
        title: 'Active users',
        icon: 'fa-user',
        value: 18_450,
        abbreviate: true,
        rounding: 1,
        delta: 320,
        delta_type: 'absolute',
      },
    },
    {
      tag: 'churn',
      variant: 'value',
      at: [16, 0, 8, 5],
      data: {
        title: 'Churn',
        value: 1.9,
        value_type: 'percent',
        rounding: 1,
        delta: -0.3,
        delta_type: 'inverse',
      },
    },
    {
      tag: 'nps',
      variant: 'value',
      at: [24, 0, 8, 5],
      data: { title: 'NPS', value: 46, label: 'last quarter', delta: 3 },
    },
    {
      tag: 'growth',
      variant: 'graph',
      at: [0, 5, 16, 8],
      data: {
        title: 'Customers',
        renderer: 'area',
        x_labels: ['Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov'],
        series: [{ label: 'Customers', values: [1820, 1904, 1987, 2110, 2236, 2390], color: '#2f81f7' }],
      },
    },
    {
      tag: 'capacity',
      variant: 'multigauge',
      at: [16, 5, 16, 8],
      data: {
        title: 'Capacity',
        layout: 'horizontal',
        gauges: [
          { label: 'Support', value: 72, max: 100, value_type: 'percent' },
          { label: 'Sales', value: 58, max: 100, value_type: 'percent' },
          { label: 'Infra', value: 41, max: 100, value_type: 'percent' },
        ],
      },
    },
    {
      tag: 'goals',
      variant: 'bulletchart',
      at: [0, 13, 12, 7],
      data: {
        title: 'Goals this quarter',
        bulletcharts: [
          { label: 'Revenue', value: 82, max: 100, marker: 90, thresholds: [50, 75] },
          { label: 'Sign-ups', value: 64, max: 100, marker: 70 },
        ],
      },
    },
    {
      tag: 'cash',
      variant: 'waterfall',
      at: [12, 13, 10, 7],
      data: {
        title: 'Cash this month',
        values: [
          { label: 'Start', value: 1000 },
          { label: 'Sales', value: 500 },
          { label: 'Costs', value: -300 },
          { label: 'Tax', value: -100 },
        ],
      },
    },
    {
      tag: 'segments',
      variant: 'piechart',
      at: [22, 13, 10, 7],
      data: { title: 'Revenue by plan', values: [52, 33, 15], labels: ['Business', 'Team', 'Starter'] },
    },
  ]),
  script: { name: 'active users', interval: '5m', feeds: 'active-users', code: CODE },
};
