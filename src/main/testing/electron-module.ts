// What `import electron from 'electron'` gives in the node tests (vitest.config.ts aliases it):
// plain Node has no Electron, and the real package would try to download its binary. Empty, as
// electron-store expects outside Electron (it then keeps its file where `cwd` says); the shell
// itself is handed fake-electron.ts instead.
export default {};
