// A `.toml` import: the file's data, parsed at build time (scripts/vite-toml-data.mts).
declare module '*.toml' {
  const data: unknown;
  export default data;
}
