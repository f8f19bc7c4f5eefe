import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPlaylist } from '../../service/actions/playlists';
import { DEMO_LOGIN, startEmbeddedService } from './embedded-service';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-embedded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function playlistOf(url: string, token: string, tag: string): Promise<string | null> {
  const answer = await fetch(`${url}/devices/${tag}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { playlist_id: string | null }).playlist_id;
}

it("gives the screen the first playlist through the service's actions, and keeps an operator's choice", async () => {
  let chosen = '';
  const first = await startEmbeddedService({
    dataDir: dir,
    deviceTag: 'lobby',
    log,
    seeder: async (ctx) => {
      await createPlaylist(ctx, { name: 'demo', items: [] });
      chosen = (await createPlaylist(ctx, { name: 'chosen later', items: [] })).id;
    },
  });
  try {
    const shown = await playlistOf(first.url, first.token, 'lobby');
    expect(shown).not.toBeNull();
    expect(shown).not.toBe(chosen);
    const patched = await fetch(`${first.url}/devices/lobby`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ playlist_id: chosen }),
    });
    expect(patched.status).toBe(200);
  } finally {
    await first.close();
  }
  const again = await startEmbeddedService({ dataDir: dir, deviceTag: 'lobby', log, seeder: null });
  try {
    expect(await playlistOf(again.url, again.token, 'lobby')).toBe(chosen);
  } finally {
    await again.close();
  }
});

/** Signs in with the code of a console link; the user it signed in. */
async function signInWith(link: string): Promise<{ status: number; login?: string }> {
  const { origin, hash } = new URL(link);
  const answer = await fetch(`${origin}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: new URLSearchParams(hash.slice(1)).get('code') }),
  });
  return { status: answer.status, login: ((await answer.json()) as { login?: string }).login };
}

it('makes a demo admin once, and prints a new one-time console link at every start', async () => {
  const first = await startEmbeddedService({ dataDir: dir, deviceTag: 'lobby', log, seeder: null });
  const link = first.consoleLink ?? '';
  try {
    expect(link).toMatch(new RegExp(`^${first.url}/console/sign-in#code=wbc_[\\w-]{43}$`));
    expect(await signInWith(link)).toEqual({ status: 200, login: DEMO_LOGIN });
    // Once only.
    expect((await signInWith(link)).status).toBe(401);
  } finally {
    await first.close();
  }
  const again = await startEmbeddedService({ dataDir: dir, deviceTag: 'lobby', log, seeder: null });
  try {
    expect(again.consoleLink).not.toBe(link);
    expect(await signInWith(again.consoleLink ?? '')).toEqual({ status: 200, login: DEMO_LOGIN });
    const users = await fetch(`${again.url}/users`, { headers: { authorization: `Bearer ${again.token}` } });
    expect(((await users.json()) as { login: string }[]).map((user) => user.login)).toEqual([DEMO_LOGIN]);
  } finally {
    await again.close();
  }
});
