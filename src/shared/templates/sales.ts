import { templateBoard, type BoardTemplate } from './template';

/** Revenue from a sales system's API; the sample walks from the last value so a run shows change. */
const CODE = `// Read today's revenue from your sales system, for example:
//   const http = require('wallboard/http');
//   const today = await http.getJson('https://sales.example.com/api/today', {
//     headers: { authorization: 'Bearer <your key>' },
//   });
//   const value = today.revenue;
// Until then, a run walks the sample figure a little.
const last = typeof previous.value === 'number' ? previous.value : 48200;
const value = Math.round(last * (0.98 + Math.random() * 0.05));
const sparkline = (Array.isArray(previous.sparkline) ? previous.sparkline : []).concat(value).slice(-20);
return {
  title: 'Revenue today',
  value,
  value_type: 'currency',
  abbreviate: true,
  rounding: 1,
  delta: Math.round(((value - last) / last) * 1000) / 10,
  delta_type: 'percent',
  sparkline,
};`;

export const SALES: BoardTemplate = {
  id: 'sales',
  name: 'Sales',
  description: 'Revenue, orders and conversion today, the week, regions, targets, the funnel and top deals.',
  board: templateBoard({ name: 'Sales', theme: 'light' }, [
    {
      tag: 'revenue',
      variant: 'value',
      at: [0, 0, 8, 5],
      data: {
        title: 'Revenue today',
        icon: 'fa-sack-dollar',
        value: 48_200,
        value_type: 'currency',
        abbreviate: true,
        rounding: 1,
        delta: 6.4,
        delta_type: 'percent',
        sparkline: [31, 35, 34, 39, 42, 44, 48],
      },
    },
    {
      tag: 'orders',
      variant: 'value',
      at: [8, 0, 8, 5],
      data: { title: 'Orders', icon: 'fa-cart-shopping', value: 412, label: 'today', delta: 3.1 },
    },
    {
      tag: 'conversion',
      variant: 'value',
      at: [16, 0, 8, 5],
      data: { title: 'Conversion', value: 3.8, value_type: 'percent', rounding: 1, delta: -0.2 },
    },
    {
      tag: 'targets',
      variant: 'bulletchart',
      at: [24, 0, 8, 10],
      data: {
        title: 'Quarterly targets',
        bulletcharts: [
          { label: 'Revenue', value: 270, max: 300, marker: 250, thresholds: [150, 225] },
          { label: 'New customers', value: 82, max: 100, marker: 90 },
          { label: 'Renewals', value: 41, max: 60, marker: 50 },
        ],
      },
    },
    {
      tag: 'week',
      variant: 'graph',
      at: [0, 5, 16, 8],
      data: {
        title: 'Revenue this week',
        renderer: 'bar',
        x_labels: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
        series: [{ label: 'Revenue', values: [41_200, 45_900, 39_800, 52_300, 58_100, 33_400, 29_700] }],
      },
    },
    {
      tag: 'regions',
      variant: 'barchart',
      at: [16, 5, 8, 8],
      data: {
        title: 'By region',
        bars: [
          { label: 'North', value: 12_400 },
          { label: 'South', value: 15_100 },
          { label: 'East', value: 9_800 },
          { label: 'West', value: 10_900 },
        ],
        sort: 'desc',
      },
    },
    {
      tag: 'funnel',
      variant: 'funnelchart',
      at: [24, 10, 8, 10],
      data: {
        title: 'Funnel',
        values: [
          { label: 'Visits', value: 12_000 },
          { label: 'Carts', value: 1_900 },
          { label: 'Orders', value: 412, color: '#3fb950' },
        ],
      },
    },
    {
      tag: 'deals',
      variant: 'table',
      at: [0, 13, 24, 7],
      data: {
        title: 'Top deals',
        headers: ['Customer', 'Owner', 'Stage', 'Amount'],
        cells: [
          [
            { value: 'Acme Corp' },
            { value: 'Maria' },
            { value: 'Won', color: '#1a7f37' },
            { value: 18_500, value_type: 'currency', alignment: 'right' },
          ],
          [
            { value: 'Globex' },
            { value: 'Sam' },
            { value: 'Proposal' },
            { value: 12_000, value_type: 'currency', alignment: 'right' },
          ],
          [
            { value: 'Initech' },
            { value: 'Lee' },
            { value: 'Negotiation' },
            { value: 9_750, value_type: 'currency', alignment: 'right' },
          ],
        ],
      },
    },
  ]),
  script: { name: 'revenue today', interval: '5m', feeds: 'revenue', code: CODE },
};
