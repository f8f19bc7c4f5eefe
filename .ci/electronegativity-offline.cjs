// Preloaded into the Electronegativity scan. Offline, the scan's downloads (translations, the list
// of Electron releases) fail, and it goes on without them, as it should; but the `got` 11 it uses
// then fails once more from its retry timer on Node 24, after its promise has settled, as an
// uncaught exception that would end the scan. Those late network errors of `got`, and only they,
// are dropped.
'use strict';
const LATE = /onCancel` handler was attached after the promise settled/;
const OFFLINE = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNRESET']);
process.on('uncaughtException', (error) => {
  if (error instanceof Error && LATE.test(error.message)) return;
  if (error instanceof Error && error.name === 'RequestError' && OFFLINE.has(error.code)) return;
  throw error;
});
