import { pngSize, type ScreenshotInfo } from '../../src/shared/command';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { DeviceRepository } from '../repositories/devices';
import { ScreenshotRepository } from '../repositories/screenshots';
import { deviceOf } from './commands';

/**
 * Keeps `png` as the device's newest screenshot, taken now (the service's time: the screen's
 * clock may be off). Bytes that are not a PNG are refused with nothing kept.
 */
export async function storeScreenshot(
  ctx: ServiceContext,
  tag: string,
  png: Uint8Array,
): Promise<ScreenshotInfo> {
  const size = pngSize(png);
  if (!size) {
    throw invalid('the body is not a PNG image', [
      { path: 'body', message: 'must be a PNG image (it starts with the PNG signature and an IHDR chunk)' },
    ]);
  }
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const device = await deviceOf(new DeviceRepository(tx), tag);
    const info = await new ScreenshotRepository(tx).put(device, png, size, now);
    emit({ type: 'console', resource: 'screenshots', id: tag });
    return info;
  });
}
