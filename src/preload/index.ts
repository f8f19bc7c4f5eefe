// The sandboxed preload (bundled to one CommonJS file, dist/preload/index.cjs): the page gets
// exactly the bridge contract as `window.wallboard`, never ipcRenderer or an IPC event. Its
// methods come from the contract's table, and what main sends is checked here, where it enters
// the renderer's process.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { z } from 'zod';
import { BRIDGE_CHANNELS } from '../shared/bridge';
import { bridgeClient } from '../shared/bridge-client';

// The window's Content-Security-Policy forbids eval: zod is told not to probe for it.
z.config({ jitless: true });

const bridge = bridgeClient({
  ask: (method, args) => ipcRenderer.invoke(BRIDGE_CHANNELS[method], ...args),
  tell: (method, args) => ipcRenderer.send(BRIDGE_CHANNELS[method], ...args),
  subscribe(listener) {
    const forward = (_event: IpcRendererEvent, message: unknown) => listener(message);
    ipcRenderer.on(BRIDGE_CHANNELS.message, forward);
    return () => {
      ipcRenderer.removeListener(BRIDGE_CHANNELS.message, forward);
    };
  },
});

contextBridge.exposeInMainWorld('wallboard', bridge);
