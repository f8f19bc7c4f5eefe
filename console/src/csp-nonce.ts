/**
 * The page's nonce (service/routes/console.ts puts a fresh one in every answer of the page): the
 * style elements Mantine and CodeMirror write carry it, so the policy needs no 'unsafe-inline'.
 */
export const CSP_NONCE = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
