import { expect, it } from 'vitest';
import { httpsOnlyFetch } from './media-guard';

it('lets the service, https and loopback through, and refuses remote http', async () => {
  const fetched: string[] = [];
  const fetch = httpsOnlyFetch(
    async (url) => {
      fetched.push(url);
      return new Response('ok');
    },
    () => 'http://wall.lan:8787',
    () => false,
  );
  for (const url of [
    'http://wall.lan:8787/devices/lobby',
    'https://cdn.example/video.mp4',
    'http://127.0.0.1:9000/local.png',
    'http://localhost/x.png',
    'http://[::1]/x.png',
  ]) {
    await expect(fetch(url)).resolves.toBeInstanceOf(Response);
  }
  for (const url of [
    'http://cdn.example/video.mp4',
    'http://wall.lan:9999/other-port.png',
    'ftp://x/y',
    'nonsense',
  ]) {
    await expect(fetch(url), url).rejects.toThrow(TypeError);
  }
  expect(fetched).toHaveLength(5);
  await expect(fetch('http://cdn.example/video.mp4?sig=secret')).rejects.toThrow(
    'refused http://cdn.example/video.mp4: remote media is loaded over https only',
  );
});

it('lets only https and loopback through while the service is not known yet', async () => {
  const fetch = httpsOnlyFetch(
    async () => new Response('ok'),
    () => null,
    () => false,
  );
  await expect(fetch('https://cdn.example/a.png')).resolves.toBeInstanceOf(Response);
  await expect(fetch('http://wall.lan:8787/pairings')).rejects.toThrow(TypeError);
});

it('lets remote http through while the service allows plain http media', async () => {
  let allowed = true;
  const fetch = httpsOnlyFetch(
    async () => new Response('ok'),
    () => 'https://wall.example',
    () => allowed,
  );
  await expect(fetch('http://cdn.example/video.mp4')).resolves.toBeInstanceOf(Response);
  await expect(fetch('ftp://cdn.example/video.mp4')).rejects.toThrow(TypeError);
  // The settings change: the next fetch follows them.
  allowed = false;
  await expect(fetch('http://cdn.example/video.mp4')).rejects.toThrow('--allow-http-media');
});
