import './zod-config';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ApiError } from './api/client';
import { CSP_NONCE } from './csp-nonce';
import { theme } from './theme';

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      // Realtime notices make queries stale (api/realtime.ts): no refetch on every focus.
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A refusal (404, 403) will not change by asking again; a lost connection may.
      retry: (count, error) => count < 3 && !(error instanceof ApiError && error.status > 0),
    },
  },
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" getStyleNonce={() => CSP_NONCE}>
      <Notifications />
      <QueryClientProvider client={queries}>
        <ModalsProvider>
          <App />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
