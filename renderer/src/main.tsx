import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { findBridge } from './bridge';
import { RemoteCommands } from './remote-commands';
import { followVersions } from './version-swap';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const root = createRoot(container);
// The web player swaps versions in this page rather than reloading it (version-swap.ts).
followVersions(() => root.unmount());
findBridge((bridge) =>
  root.render(
    <StrictMode>
      {/* On the App's stage, so the identify face turns with the screen. */}
      <App bridge={bridge}>{bridge && <RemoteCommands bridge={bridge} />}</App>
    </StrictMode>,
  ),
);
