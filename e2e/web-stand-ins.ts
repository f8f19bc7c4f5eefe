// Stand-ins for the internet on loopback, for the tests of web content: a tile server, an
// Open-Meteo compatible forecast API, and web pages (one that lets itself be framed, one that
// refuses). Each counts what it was asked, so a test can tell a cache from a fetch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

const TILE = 256;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, sum]);
}

/**
 * A 256 x 256 PNG tile, drawn the same for the same z/x/y: a land colour, the tile's border and a
 * diagonal road, so a screenshot shows where tiles join and that each was drawn.
 */
export function pngTile(z: number, x: number, y: number): Buffer {
  const land = (x + y) % 2 === 0 ? [226, 232, 220] : [214, 224, 210];
  const rows: Buffer[] = [];
  for (let row = 0; row < TILE; row++) {
    const line = Buffer.alloc(1 + TILE * 3);
    for (let column = 0; column < TILE; column++) {
      const border = row === 0 || column === 0;
      const road = Math.abs(row - column) < 3 + (z % 3);
      const [r, g, b] = border ? [180, 190, 200] : road ? [250, 250, 250] : land;
      line.set([r!, g!, b!], 1 + column * 3);
    }
    rows.push(line);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(TILE, 0);
  header.writeUInt32BE(TILE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What `GET /v1/forecast` answers: 7.4 °C, partly cloudy by day, and five days. */
export function forecast(latitude: number, longitude: number) {
  return {
    latitude,
    longitude,
    timezone: 'UTC',
    current_units: { temperature_2m: '°C' },
    current: { time: '2025-01-15T12:00', temperature_2m: 7.4, weather_code: 2, is_day: 1 },
    daily: {
      time: ['2025-01-15', '2025-01-16', '2025-01-17', '2025-01-18', '2025-01-19'],
      weather_code: [2, 61, 3, 71, 0],
      temperature_2m_max: [8.1, 6.5, 5.2, 1.4, 3.9],
      temperature_2m_min: [2.3, 1.9, 0.4, -3.2, -1.8],
    },
  };
}

export const STATUS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Status</title>
<style>body{margin:0;font:16px/1.4 "DejaVu Sans",sans-serif;background:#f6f8fa;color:#1f2328}
h1{margin:0;padding:10px 14px;font-size:20px;background:#1f883d;color:#fff}
li{padding:4px 0}</style></head><body><h1>All systems operational</h1>
<ul><li>API: 99.98 %</li><li>Web: 99.95 %</li><li>Mail: 100 %</li></ul></body></html>`;

export interface StandIns {
  /** Web pages: `${pages}/status.html` may be framed, `${pages}/refuses.html` may not. */
  pages: string;
  /** A tile URL template for `--map-tiles`. */
  tiles: string;
  /** A base URL for `--weather-url`. */
  weather: string;
  /** Requests each stand-in received, by path. */
  hits: string[];
  close(): Promise<void>;
}

function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

export async function startStandIns(): Promise<StandIns> {
  const hits: string[] = [];
  const server = await listen((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    hits.push(url.pathname);
    const tile = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(url.pathname);
    if (tile) {
      const [z, x, y] = tile.slice(1).map(Number) as [number, number, number];
      response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=86400' });
      response.end(pngTile(z, x, y));
    } else if (url.pathname === '/v1/forecast') {
      const body = forecast(
        Number(url.searchParams.get('latitude')),
        Number(url.searchParams.get('longitude')),
      );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    } else if (url.pathname === '/status.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(STATUS_PAGE);
    } else if (url.pathname === '/refuses.html') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'x-frame-options': 'DENY',
        'content-security-policy': "frame-ancestors 'none'",
      });
      response.end('<!doctype html><title>Bank</title><p>Not in a frame.</p>');
    } else {
      response.writeHead(404).end();
    }
  });
  const base = urlOf(server);
  return {
    pages: base,
    tiles: `${base}/tiles/{z}/{x}/{y}.png`,
    weather: base,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
