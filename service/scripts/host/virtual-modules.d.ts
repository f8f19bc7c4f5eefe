// The guest prelude as text, made by build.ts from guest/prelude.ts when it bundles the host.
declare module 'virtual:wallboard-guest-prelude' {
  const source: string;
  export default source;
}

// The engine's WebAssembly, as bytes: build.ts bundles the file with esbuild's binary loader.
declare module '@jitl/quickjs-wasmfile-release-sync/wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
