import { parse } from 'smol-toml';
import type { Plugin } from 'vite';

/**
 * `import data from './file.toml'`: the TOML is parsed at build time and inlined as JSON (JSON.parse of a string is
 * the fastest way V8 builds a large object). The vendored gitleaks rule set costs a one-shot CLI command ~30 ms to
 * parse with smol-toml at run time and ~1 ms as JSON. Used by the main build and by vitest alike.
 */
export function tomlData(): Plugin {
  return {
    name: 'gatehouse-toml-data',
    transform(code, id) {
      if (!id.endsWith('.toml')) return null;
      const json = JSON.stringify(parse(code));
      return { code: `export default JSON.parse(${JSON.stringify(json)});`, map: null };
    },
  };
}
