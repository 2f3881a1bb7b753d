import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The chunks of the CLI and the worker (out/main/cli-chunks, built by `npm run build`, which `npm test` runs first)
// are ASCII: V8 keeps a source with no other character as a one-byte string, half the memory of a two-byte one, and
// each process reads, copies (the module wrapper) and keeps the source of every chunk it loads. One "—" in a JSDoc
// comment made the Anthropic SDK's 1.2 MB chunk two-byte. Measured on a `gatehouse run` with a tool call: the
// worker's page faults 10,100 -> 8,400 (cli.vite.config.ts: `charset: 'ascii'`, no JSDoc comments).
const chunks = path.resolve(__dirname, '../../../out/main/cli-chunks');

describe('the CLI and worker bundle', () => {
  it('is ASCII only, so V8 stores each chunk one byte per character', () => {
    expect(fs.existsSync(chunks), `${chunks} is missing: run \`npm run build\` first`).toBe(true);
    const files = fs.readdirSync(chunks).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(10);
    const offenders = files.flatMap((f) => {
      const text = fs.readFileSync(path.join(chunks, f), 'utf8');
      const at = text.search(/[\u0080-\uffff]/);
      return at === -1 ? [] : [`${f}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`];
    });
    expect(offenders).toEqual([]);
  });
});
