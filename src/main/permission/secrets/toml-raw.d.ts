// Vite's `?raw` import: the file's text, inlined into the bundle at build time.
declare module '*.toml?raw' {
  const text: string;
  export default text;
}
