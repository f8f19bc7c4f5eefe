// The sandboxed preload (bundled to one CommonJS file, dist/preload/index.cjs): the page gets
// exactly the bridge contract as `window.wallboard`, never ipcRenderer or an IPC event.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type {
  BRIDGE_CHANNELS as BridgeChannels,
  BridgeMessage,
  PlayerState,
  RendererLog,
  ShowingReport,
  WallboardBridge,
} from '../shared/bridge';

// The channel names, checked against BRIDGE_CHANNELS by the type: importing the value would pull
// every zod schema of the contract into a preload that validates nothing (main does).
const CHANNELS: typeof BridgeChannels = {
  getState: 'wallboard:get-state',
  message: 'wallboard:message',
  reportShowing: 'wallboard:report-showing',
  log: 'wallboard:log',
};

const bridge: WallboardBridge = {
  getState: () => ipcRenderer.invoke(CHANNELS.getState) as Promise<PlayerState>,
  onMessage(listener) {
    const forward = (_event: IpcRendererEvent, message: BridgeMessage) => listener(message);
    ipcRenderer.on(CHANNELS.message, forward);
    return () => {
      ipcRenderer.removeListener(CHANNELS.message, forward);
    };
  },
  reportShowing: (report: ShowingReport) => ipcRenderer.send(CHANNELS.reportShowing, report),
  log: (entry: RendererLog) => ipcRenderer.send(CHANNELS.log, entry),
};

contextBridge.exposeInMainWorld('wallboard', bridge);
