import { request, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { AppImageUpdater } from 'electron-updater';
import { ElectronAppAdapter } from 'electron-updater/out/ElectronAppAdapter';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor';
import type { FakeApp } from './fake-electron';

/**
 * electron-updater's own HTTP executor with one part swapped: the request goes out through Node's
 * `http` instead of Electron's `net` (which needs Electron's binary). Its `download`, the
 * redirects, the size and sha512 checks (builder-util-runtime's DigestTransform) are its own.
 */
class NodeNetExecutor extends ElectronHttpExecutor {
  override createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): never {
    const outgoing: ClientRequest = request(options, callback);
    return outgoing as never;
  }
}

/**
 * electron-updater's AppImageUpdater, made as in the app (`new AppImageUpdater()`) except for
 * the two things plain Node lacks: Electron's `app`, given by the fake Electron's app through
 * electron-updater's own ElectronAppAdapter, and Electron's network, by NodeNetExecutor.
 */
export function appImageUpdaterWithFakeApp(app: FakeApp): AppImageUpdater {
  const updater = new AppImageUpdater(null, new ElectronAppAdapter(app));
  Object.assign(updater, { httpExecutor: new NodeNetExecutor() });
  return updater;
}
