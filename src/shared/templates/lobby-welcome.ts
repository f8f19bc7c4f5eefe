import { templateBoard, type BoardTemplate } from './template';

/** The ticker's news: the day's lines, here from a list, later from an intranet's feed. */
const CODE = `// The lines that scroll along the bottom. Read them from your intranet instead, for example:
//   const http = require('wallboard/http');
//   const news = await http.getJson('https://intranet.example.com/api/news?limit=5');
//   const messages = news.map((item) => item.headline);
const day = new Date().getUTCDay();
const messages = [
  'Welcome! Please sign in at the front desk',
  day === 5 ? 'Breakfast for everyone in the café until 10:00' : 'The café on the 2nd floor is open 08:00 to 16:00',
  'Guest Wi-Fi: Northwind-Guest',
];
return { messages };`;

export const LOBBY_WELCOME: BoardTemplate = {
  id: 'lobby-welcome',
  name: 'Lobby welcome',
  description:
    "For the entrance: a welcome, the time, today's visitors, the guest Wi-Fi, directions and news.",
  board: templateBoard({ name: 'Lobby welcome', theme: 'light' }, [
    {
      tag: 'welcome',
      variant: 'text',
      at: [0, 0, 22, 8],
      data: {
        title: 'Welcome to Northwind',
        text: 'We are glad you are here. Our hosts will meet you at the front desk.',
        alignment: 'center',
      },
    },
    { tag: 'clock', variant: 'clock', at: [22, 0, 10, 8], data: { style: 'analog' } },
    {
      tag: 'visitors',
      variant: 'table',
      at: [0, 8, 16, 9],
      data: {
        title: "Today's visitors",
        headers: ['Guest', 'Host', 'Time'],
        cells: [
          [{ value: 'Dana Whitfield' }, { value: 'Maria Lopez' }, { value: '09:30' }],
          [{ value: 'Contoso team' }, { value: 'Sam Carter' }, { value: '11:00' }],
          [{ value: 'Ravi Patel' }, { value: 'Lee Chen' }, { value: '14:15' }],
        ],
      },
    },
    {
      tag: 'wifi',
      variant: 'text',
      at: [16, 8, 16, 5],
      data: {
        title: 'Guest Wi-Fi',
        text: 'Network Northwind-Guest, password welcome2026',
        alignment: 'center',
      },
    },
    {
      tag: 'directions',
      variant: 'icon',
      at: [16, 13, 16, 4],
      data: {
        title: 'Find your way',
        icons: [
          { type: 'fa-mug-hot', label: 'Café: 2nd floor' },
          { type: 'fa-elevator', label: 'Lifts: left' },
          { type: 'fa-restroom', label: 'Restrooms: right' },
        ],
      },
    },
    {
      tag: 'news',
      variant: 'tickertape',
      at: [0, 17, 32, 3],
      data: {
        messages: [
          'Welcome! Please sign in at the front desk',
          'The café on the 2nd floor is open 08:00 to 16:00',
          'Guest Wi-Fi: Northwind-Guest',
        ],
      },
    },
  ]),
  script: { name: 'news', interval: '15m', feeds: 'news', code: CODE },
};
