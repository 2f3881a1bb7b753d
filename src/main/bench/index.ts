import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchIpc } from './ipc-bench';
import { benchPermission } from './permission-bench';
import { benchSandbox } from './sandbox-bench';
import { benchToolRoundtrip } from './tool-bench';

// `npm run bench [-- --json]`: measures the product's speed; with --json the last line is one JSON object.
async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-'));
  const results: Record<string, number> = {};
  const benches: [string, () => Promise<Record<string, number>>][] = [
    ['ipc', () => benchIpc(configDir)],
    ['permission', () => benchPermission()],
    ['sandbox', () => benchSandbox(configDir)],
    ['tool', () => benchToolRoundtrip(configDir)],
  ];
  try {
    for (const [name, run] of benches) {
      const r = await run();
      Object.assign(results, r);
      if (!json) for (const [k, v] of Object.entries(r)) console.log(`${name.padEnd(12)} ${k.padEnd(34)} ${v}`);
    }
  } finally {
    fs.rmSync(configDir, { recursive: true, force: true });
  }
  if (json) console.log(JSON.stringify(results));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exitCode = 1;
});
