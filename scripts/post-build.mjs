// Finishes the built CLI (out/main/cli.js):
// - writes its build id: a hash of the CLI's code (the entry, every chunk, and the external parser packages it loads),
//   which names the decision helper's socket, so a rebuilt or upgraded CLI never talks to a helper of older code;
// - makes it an executable script: a shebang and the execute bit;
// - records what out/ was built from, so `npm start` knows it is current (build-inputs.mjs).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeBuildStamp } from './build-inputs.mjs';

const cli = 'out/main/cli.js';
const PLACEHOLDER = '@@GATEHOUSE_CLI_BUILD_ID@@';
let text = fs.readFileSync(cli, 'utf8');
if (!text.includes(PLACEHOLDER)) throw new Error(`${cli}: no build id placeholder ${PLACEHOLDER} to fill in`);

const require = createRequire(path.resolve(cli));
const hash = createHash('sha256');
const part = (name, data) => hash.update(`${name}\0${data.length}\0`).update(data);
part('cli.js', Buffer.from(text));
const chunks = 'out/main/cli-chunks';
for (const name of fs.readdirSync(chunks).sort()) part(name, fs.readFileSync(path.join(chunks, name)));
for (const wasm of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  const file = require.resolve(wasm);
  part(wasm, fs.readFileSync(file));
  part(`${wasm}:package.json`, fs.readFileSync(path.join(path.dirname(file), 'package.json')));
}
const buildId = hash.digest('hex').slice(0, 16);

text = text.split(PLACEHOLDER).join(buildId);
if (!text.startsWith('#!')) text = '#!/usr/bin/env node\n' + text;
fs.writeFileSync(cli, text);
fs.chmodSync(cli, 0o755);

// Last: out/ is complete, so `npm start` need not build it again until an input changes (build-inputs.mjs).
writeBuildStamp(process.cwd());
