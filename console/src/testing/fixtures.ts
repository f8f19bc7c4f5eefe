import type { Flow } from '../../../src/shared/flow';
import type { Media, MediaUsage } from '../../../src/shared/media';
import type { DraftWidget } from '../pages/boards/editor/draft';

/** A value flow as the service lists it. */
export const sampleFlow = (id: string, tag: string, errored = false): Flow => ({
  id,
  embed_id: id,
  type: 'default',
  variant: 'value',
  tag,
  errored,
  enabled: true,
  channel_id: null,
  source: null,
  parameters: null,
  created_at: '2026-11-23T08:00:00.000Z',
});

/** A value widget of the editor's draft at `column` of the first row; `new:` keys are unsaved. */
export const draftWidget = (key: string, flow_id: string, column: number): DraftWidget => ({
  key,
  id: key.startsWith('new:') ? undefined : key,
  flow_id,
  variant: 'value',
  column,
  row: 0,
  width: 4,
  height: 3,
  background: 'default',
  code: null,
});

/** The library's logo.png, used by `used_by`. */
export const sampleMedium = (used_by: MediaUsage[] = []): Media => ({
  id: 'm1',
  name: 'logo.png',
  content_type: 'image/png',
  kind: 'image',
  bytes: 1200,
  sha256: 'a'.repeat(64),
  url: '/media/m1/content',
  created_at: '2026-11-23T08:00:00.000Z',
  tags: [],
  expires_at: null,
  play_url: `/media/m1/content?v=${'a'.repeat(16)}`,
  used_by,
});
