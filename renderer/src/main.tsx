import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { findBridge } from './bridge';
import { RemoteCommands } from './remote-commands';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const root = createRoot(container);
findBridge((bridge) =>
  root.render(
    <StrictMode>
      {/* On the App's stage, so the identify face turns with the screen. */}
      <App bridge={bridge}>{bridge && <RemoteCommands bridge={bridge} />}</App>
    </StrictMode>,
  ),
);
