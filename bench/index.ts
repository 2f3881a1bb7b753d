import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAudit } from './audit-bench';
import { benchCheckpoints } from './checkpoint-bench';
import { benchCli } from './cli-bench';
import { benchDesktopStart } from './desktop/desktop-bench';
import { benchIpc } from './ipc-bench';
import { benchMachine } from './machine-bench';
import { benchPermission } from './permission-bench';
import { benchSandbox } from './sandbox-bench';
import { benchToolRoundtrip } from './tool-bench';
import { benchUi } from './ui/ui-bench';

const USAGE = `node out/main/bench.js [--json] [--quick] [--only NAME,...]
  --json      the last line is one JSON object with every measurement
  --quick     the UI bench as a smoke test: a 3 s stream instead of 30 s, each timing once instead of 3-5 times
              (the numbers are not comparable)
  --only      run only these benches: machine, ipc, permission, audit, cli, sandbox, tool, checkpoint, ui, desktop
  env GATEHOUSE_BENCH_UI_STREAM_MS   the UI bench's stream length in ms (default 30000)`;

/** The UI bench's stream: 2,000 tokens/s for 30 s unless shortened. */
function uiStreamMs(quick: boolean): number {
  const fromEnv = Number(process.env.GATEHOUSE_BENCH_UI_STREAM_MS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return quick ? 3_000 : 30_000;
}

function onlyList(argv: string[]): Set<string> | null {
  const i = argv.indexOf('--only');
  if (i === -1) return null;
  const value = argv[i + 1];
  if (!value || value.startsWith('--')) throw new Error(`--only needs a list of benches\n${USAGE}`);
  return new Set(value.split(',').map((s) => s.trim()));
}

// `npm run bench [-- --json]`: measures the product's speed; with --json the last line is one JSON object.
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) return void console.log(USAGE);
  const json = argv.includes('--json');
  const only = onlyList(argv);
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-'));
  const results: Record<string, number> = {};
  const benches: [string, () => Promise<Record<string, number>>][] = [
    ['machine', async () => benchMachine()],
    ['ipc', () => benchIpc(configDir)],
    ['permission', () => benchPermission()],
    ['audit', async () => benchAudit(configDir)],
    ['cli', async () => benchCli(path.join(__dirname, 'cli.js'))],
    ['sandbox', () => benchSandbox(configDir)],
    ['tool', () => benchToolRoundtrip(configDir)],
    ['checkpoint', () => benchCheckpoints(configDir)],
    ['ui', () => runUiBench(argv.includes('--quick'))],
    ['desktop', () => runDesktopBench()],
  ];
  const unknown = only ? [...only].filter((n) => !benches.some(([name]) => name === n)) : [];
  if (unknown.length) throw new Error(`--only: no bench named ${unknown.join(', ')}\n${USAGE}`);
  try {
    for (const [name, run] of benches) {
      if (only && !only.has(name)) continue;
      const r = await run();
      Object.assign(results, r);
      if (!json) for (const [k, v] of Object.entries(r)) console.log(`${name.padEnd(12)} ${k.padEnd(34)} ${v}`);
    }
  } finally {
    fs.rmSync(configDir, { recursive: true, force: true });
  }
  if (json) console.log(JSON.stringify(results));
}

/** The renderer in Chromium; when it cannot run here the other numbers still print, and this says why. */
async function runUiBench(quick: boolean): Promise<Record<string, number>> {
  const result = await benchUi({
    cliPath: path.join(__dirname, 'cli.js'),
    streamMs: uiStreamMs(quick),
    tokensPerSecond: 2000,
    messages: 5000,
    repeats: quick ? { open: 1, firstContent: 1 } : { open: 3, firstContent: 5 },
  });
  if ('skipped' in result) {
    console.error(`ui           skipped: ${result.skipped}`);
    return {};
  }
  for (const note of result.notes) console.error(`ui           ${note}`);
  return result.metrics;
}

/** The desktop app's launch to first content; skipped, with the reason, where no Electron runtime or display is. */
async function runDesktopBench(): Promise<Record<string, number>> {
  const result = await benchDesktopStart({ appDir: path.resolve(__dirname, '../..') });
  if ('skipped' in result) {
    console.error(`desktop      skipped: ${result.skipped}`);
    return {};
  }
  return result.metrics;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exitCode = 1;
});
