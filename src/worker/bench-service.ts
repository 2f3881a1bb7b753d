import type { Decision } from '../shared/permission';
import type { PermissionRequest, WorkerParams, WorkerResult } from '../shared/worker-protocol';
import { createToolRegistry } from './tools/tool-set';
import type { TerminalRenderer } from './tools/terminal-render';

/** The file `bench.toolRoundtrip` reads, relative to the project root (main's bench creates it). */
const BENCH_FILE = 'bench-small.txt';

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)] ?? NaN;
}

/**
 * `tool_roundtrip_overhead_p50_us`: one read_file call through the real path, model excluded: the permission
 * request to main, main's decision, the registry's execution gate and the read, the result. Every call must be
 * allowed and succeed, else the benchmark measured something else and fails.
 */
export async function measureToolRoundtrip(
  params: WorkerParams<'bench.toolRoundtrip'>,
  requestPermission: (request: PermissionRequest) => Promise<Decision>,
): Promise<WorkerResult<'bench.toolRoundtrip'>> {
  const registry = createToolRegistry({ ripgrepPath: null });
  const ctx = { projectRoot: params.projectRoot, additionalDirectories: [], signal: new AbortController().signal };
  const input = { path: BENCH_FILE };
  const samples: number[] = [];
  for (let i = 0; i < params.count; i++) {
    const start = process.hrtime.bigint();
    const decision = await requestPermission({ tool: 'read_file', input, callId: `bench-${i}` });
    if (decision.decision !== 'allow')
      throw new Error(`bench: read_file was not allowed (${decision.decision}: ${decision.reason})`);
    const result = await registry.execute('read_file', input, ctx, { agentMode: 'do' });
    if (result.isError) throw new Error(`bench: read_file failed: ${result.content}`);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return { p50_us: p50(samples), samples: samples.length };
}

/** Renders `output` as run_command does (its terminal size and the model's default cap); milliseconds. */
async function renderMs(Renderer: typeof TerminalRenderer, output: string): Promise<number> {
  const start = process.hrtime.bigint();
  const renderer = new Renderer({ cols: 160, rows: 50, maxChars: 28_000 });
  try {
    renderer.write(output);
    const rendered = await renderer.finish();
    if (rendered.text === '') throw new Error('bench: the output rendered to nothing');
  } finally {
    renderer.dispose();
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** What rendering costs a command: a one-line output (the common case), a spinner, a flood of coloured lines. */
export async function measureCommandOutput(
  params: WorkerParams<'bench.commandOutput'>,
): Promise<WorkerResult<'bench.commandOutput'>> {
  // Loaded as run_command loads it: with the first command, not at the worker's start.
  const { TerminalRenderer: Renderer } = await import('./tools/terminal-render');
  const small: number[] = [];
  for (let i = 0; i < params.count; i++) small.push((await renderMs(Renderer, 'added 1 package in 2s\r\n')) * 1000);
  const frames: string[] = [];
  for (let i = 0; i < 2_000; i++) frames.push(`\x1b[1G\x1b[0K${'⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[i % 10]} idealTree:lodash: sill placeDep`);
  const lines: string[] = [];
  for (let i = 0; lines.length * 48 < 10 * 1024 * 1024; i++)
    lines.push(`line ${i} \x1b[32mok\x1b[0m ${'text '.repeat(6)}\r\n`);
  return {
    small_p50_us: p50(small),
    spinner_ms: await renderMs(Renderer, `${frames.join('')}\x1b[1G\x1b[0Kadded 1 package in 2s\r\n`),
    lines_10mb_ms: await renderMs(Renderer, lines.join('')),
  };
}
