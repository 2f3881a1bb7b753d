// Makes the built CLI an executable script: a shebang on out/main/cli.js and the execute bit.
import fs from 'node:fs';

const cli = 'out/main/cli.js';
let text = fs.readFileSync(cli, 'utf8');
if (!text.startsWith('#!')) {
  text = '#!/usr/bin/env node\n' + text;
  fs.writeFileSync(cli, text);
}
fs.chmodSync(cli, 0o755);
