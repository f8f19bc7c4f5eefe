import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CUSTOM_FRAME_PAGES,
  CUSTOM_FRAME_POLICIES,
  CUSTOM_FRAME_SCRIPT,
  customFramePolicy,
} from './custom-frame';

const page = (name: string) =>
  readFileSync(new URL(`../../renderer/public/${name}`, import.meta.url), 'utf8');

describe("the custom widget's host pages", () => {
  it('carry in their meta tag the policy the servers send with them', () => {
    for (const name of Object.values(CUSTOM_FRAME_PAGES)) {
      const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(page(name))?.[1];
      expect(meta, name).toBe(CUSTOM_FRAME_POLICIES[name]);
      expect(page(name)).toContain(`<script src="${CUSTOM_FRAME_SCRIPT}"></script>`);
    }
  });

  it('reach the network over https only on the page that allows it', () => {
    expect(CUSTOM_FRAME_POLICIES[CUSTOM_FRAME_PAGES.sealed]).not.toMatch(/https:|connect-src/);
    expect(CUSTOM_FRAME_POLICIES[CUSTOM_FRAME_PAGES.network]).toContain('connect-src https:');
    expect(CUSTOM_FRAME_POLICIES[CUSTOM_FRAME_PAGES.network]).not.toMatch(/http:|\*/);
  });

  it('name the policy by the last part of a path, and nothing else', () => {
    expect(customFramePolicy('/custom-frame.html')).toBe(CUSTOM_FRAME_POLICIES['custom-frame.html']);
    expect(customFramePolicy('/console/custom-frame-net.html')).toBe(
      CUSTOM_FRAME_POLICIES['custom-frame-net.html'],
    );
    for (const path of ['/', '/index.html', '/custom-frame.js', '/toString', '/custom-frame.html/x']) {
      expect(customFramePolicy(path), path).toBeNull();
    }
  });
});
