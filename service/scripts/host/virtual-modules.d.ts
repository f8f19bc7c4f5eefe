// The guest prelude as text, made by build.ts from guest/prelude.ts when it bundles the host.
declare module 'virtual:wallboard-guest-prelude' {
  const source: string;
  export default source;
}
