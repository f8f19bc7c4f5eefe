/** Vite turns an imported asset into the URL it is served from. */
declare module '*.wav' {
  const url: string;
  export default url;
}
