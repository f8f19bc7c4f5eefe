import type { App } from 'electron';
import { FRAME_ISOLATION_FEATURE } from '../shared/custom-frame';

/**
 * Sandboxed frames in processes of their own: a custom widget's code that never returns then
 * freezes its frame only, and the player replaces it (renderer/src/widgets/custom.tsx). Before
 * `ready`, as every Chromium switch.
 */
export function isolateSandboxedFrames(app: Pick<App, 'commandLine'>): void {
  app.commandLine.appendSwitch('enable-features', FRAME_ISOLATION_FEATURE);
}
