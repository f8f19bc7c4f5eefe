/** The new store's template's file name, beside each bundle that holds the service (store-template.ts). */
export const TEMPLATE_FILE = 'fresh-store.sqlite';
