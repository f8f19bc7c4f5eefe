import { templateBoard, type BoardTemplate } from './template';

/** Free or in use, worked out from the day's bookings: it needs no network, so it is safe to run. */
const CODE = `// Today's bookings, "HH:MM" in UTC. Read them from your calendar instead, for example:
//   const http = require('wallboard/http');
//   const BOOKINGS = await http.getJson('https://calendar.example.com/api/rooms/orion/today');
const BOOKINGS = [
  { from: '09:00', to: '09:30', what: 'Stand-up' },
  { from: '10:00', to: '11:30', what: 'Design review' },
  { from: '14:00', to: '15:00', what: 'Customer call' },
];
const minutes = (hhmm) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const now = new Date();
const current = now.getUTCHours() * 60 + now.getUTCMinutes();
const busy = BOOKINGS.find((b) => minutes(b.from) <= current && current < minutes(b.to));
if (busy) {
  return { title: 'Now', value: 'In use', label: busy.what + ' until ' + busy.to, color: '#f85149' };
}
const next = BOOKINGS.find((b) => minutes(b.from) > current);
return {
  title: 'Now',
  value: 'Free',
  label: next ? 'until ' + next.from : 'for the rest of the day',
  color: '#3fb950',
};`;

const booking = (time: string, what: string, who: string) => [
  { value: time },
  { value: what },
  { value: who },
];

export const MEETING_ROOM: BoardTemplate = {
  id: 'meeting-room',
  name: 'Meeting room',
  description:
    "Beside a room's door: its name, the time, free or in use, its equipment and today's bookings.",
  board: templateBoard({ name: 'Meeting room', theme: 'dark' }, [
    {
      tag: 'room',
      variant: 'text',
      at: [0, 0, 20, 4],
      data: { title: 'Room', text: 'Orion · 4th floor · 8 seats', alignment: 'left' },
    },
    { tag: 'clock', variant: 'clock', at: [20, 0, 12, 4], data: { style: 'digital' } },
    {
      tag: 'status',
      variant: 'value',
      at: [0, 4, 20, 8],
      data: { title: 'Now', value: 'Free', label: 'until 10:00', color: '#3fb950' },
    },
    {
      tag: 'equipment',
      variant: 'icon',
      at: [20, 4, 12, 8],
      data: {
        title: 'In the room',
        icons: [
          { type: 'fa-tv', label: 'Screen' },
          { type: 'fa-video', label: 'Camera' },
          { type: 'fa-chalkboard', label: 'Whiteboard' },
        ],
      },
    },
    {
      tag: 'agenda',
      variant: 'table',
      at: [0, 12, 32, 8],
      data: {
        title: 'Today',
        headers: ['Time', 'Meeting', 'Booked by'],
        cells: [
          booking('09:00 to 09:30', 'Stand-up', 'Platform team'),
          booking('10:00 to 11:30', 'Design review', 'Maria Lopez'),
          booking('14:00 to 15:00', 'Customer call', 'Sam Carter'),
        ],
      },
    },
  ]),
  script: { name: 'free or in use', interval: '1m', feeds: 'status', code: CODE },
};
