// The floor of bench/renderer, in a process of its own as the web player is: a bare page of 100
// divs laid out as the board's widgets, whose text it sets from a WebSocket, one message per
// update, with no framework, no checks and no batching. `POST /go?seconds=&rate=` sends the
// bench's updates (bench/renderer-feed.ts) to every page connected, at that rate, and answers
// how many it sent.
// Usage: node --import tsx bench/renderer-floor.ts   (prints "listening on <url>")
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { benchBoard, WIDGET_COUNT } from './renderer-board';
import { paced, updateAt } from './renderer-feed';

const { state, payloads } = benchBoard();
const board = Object.values(state.boards)[0]!;
const cellWidth = 100 / board.columns;
const cellHeight = 100 / board.rows;

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const cells = board.widgets
  .map((widget) => {
    const title = typeof widget.flow.data.title === 'string' ? widget.flow.data.title : widget.flow.tag;
    const box = [
      `left:${widget.column * cellWidth}vw`,
      `top:${widget.row * cellHeight}vh`,
      `width:${widget.width * cellWidth}vw`,
      `height:${widget.height * cellHeight}vh`,
    ].join(';');
    return `<div class="cell" data-tag="${escape(widget.flow.tag)}" style="${box}">${escape(title)}</div>`;
  })
  .join('');

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bare</title><style>
html,body{margin:0;height:100%;background:#0d1117;color:#e6edf3;font:20px sans-serif;overflow:hidden}
.cell{position:absolute;box-sizing:border-box;padding:8px;border:1px solid #30363d}
</style></head><body>${cells}<script>
const cells = new Map([...document.querySelectorAll('.cell')].map((cell) => [cell.dataset.tag, cell]));
const counts = new Map();
const socket = new WebSocket('ws://' + location.host + '/feed');
socket.onmessage = (event) => {
  const { flow_tag, data } = JSON.parse(event.data);
  const cell = cells.get(flow_tag);
  if (!cell) return;
  const count = (counts.get(flow_tag) ?? 0) + 1;
  counts.set(flow_tag, count);
  cell.textContent = (data.title ?? flow_tag) + ' #' + count;
};
</script></body></html>`;

if (board.widgets.length !== WIDGET_COUNT) throw new Error('the bare page must have one div per widget');

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method === 'GET' && url.pathname === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return;
  }
  if (request.method === 'POST' && url.pathname === '/go') {
    const seconds = Number(url.searchParams.get('seconds'));
    const rate = Number(url.searchParams.get('rate'));
    void paced(seconds, rate, (n) => {
      const update = updateAt(payloads, n);
      const frame = `{"flow_tag":${JSON.stringify(update.tag)},"data":${update.json}}`;
      for (const socket of sockets.clients) socket.send(frame);
      return true;
    }).then((result) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
    );
    return;
  }
  response.writeHead(404).end();
});
const sockets = new WebSocketServer({ server, path: '/feed' });
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
});
