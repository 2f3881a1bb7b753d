import { analyzeCommand } from '../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../src/main/core/shell-analysis/parse/parser';
import { parseShell } from '../src/main/core/shell-analysis/parse/parser';
import { createBenchEngine, measureStatPerCheckUs } from './support/permission-fixture';
import { percentile, round, usSince } from './stats';

const COMMANDS = [
  'ls -la src',
  'git status && git diff --stat | tail -n 5',
  'npm run test -- --watch --coverage',
  "find . -name '*.ts' -not -path './node_modules/*' | xargs grep -n TODO | sort | uniq -c | sort -rn | head -20",
  'FOO=$(cat package.json | jq -r .version) bash -c "echo building $FOO && npm run build > build.log 2>&1"',
  `for f in src/*.ts; do if grep -q "export default" "$f"; then echo "$f"; fi; done; ${'echo '.repeat(60)}done`,
];

async function decisionP99(rules: number): Promise<{ p50: number; p99: number; statUs: number }> {
  const { engine, calls, cleanup } = await createBenchEngine(rules);
  try {
    for (let i = 0; i < 400; i++) await engine.decide(calls[i % calls.length]);
    const samples: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const t = process.hrtime.bigint();
      await engine.decide(calls[i % calls.length]);
      samples.push(usSince(t));
    }
    return {
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      statUs: await measureStatPerCheckUs(engine, 500),
    };
  } finally {
    await cleanup();
  }
}

/**
 * shell_analysis_p50/p99_us, and the same commands' bare tree-sitter parse (web-tree-sitter, the grammar the
 * analyser uses, tree deleted like the analyser's) in the same loop: each iteration times both, in alternating
 * order, so both see the same machine state. The ratios say what the analysis costs on top of parsing, which is
 * what stays comparable between machines (a loaded machine slows both).
 */
function benchShellAnalysis(iterations: number): Record<string, number> {
  const parseOnly = (cmd: string): void => parseShell(cmd).delete();
  for (let i = 0; i < 300; i++) {
    const cmd = COMMANDS[i % COMMANDS.length] as string;
    analyzeCommand(cmd);
    parseOnly(cmd);
  }
  const analysis: number[] = [];
  const parse: number[] = [];
  const time = (f: () => void, into: number[]): void => {
    const t = process.hrtime.bigint();
    f();
    into.push(usSince(t));
  };
  for (let i = 0; i < iterations; i++) {
    const cmd = COMMANDS[i % COMMANDS.length] as string;
    if (i % 2 === 0) {
      time(() => analyzeCommand(cmd), analysis);
      time(() => parseOnly(cmd), parse);
    } else {
      time(() => parseOnly(cmd), parse);
      time(() => analyzeCommand(cmd), analysis);
    }
  }
  const [a50, a99, p50, p99] = [
    percentile(analysis, 50),
    percentile(analysis, 99),
    percentile(parse, 50),
    percentile(parse, 99),
  ];
  return {
    shell_analysis_p50_us: round(a50),
    shell_analysis_p99_us: round(a99),
    shell_parse_p50_us: round(p50),
    shell_parse_p99_us: round(p99),
    shell_analysis_p50_ratio: round(a50 / p50, 2),
    shell_analysis_p99_ratio: round(a99 / p99, 2),
  };
}

/** permission_decision_p99_us at 1,000 rules (plus the growth at 10..10,000) and the shell analysis (benchShellAnalysis). */
export async function benchPermission(): Promise<Record<string, number>> {
  await initShellParser();
  const out: Record<string, number> = {};
  await decisionP99(10); // discarded: the first engine pays for JIT compilation, which is not per-decision cost
  for (const n of [10, 100, 1000, 10000]) {
    const r = await decisionP99(n);
    out[`permission_decision_p99_us_${n}_rules`] = round(r.p99);
    if (n === 1000) {
      out.permission_decision_p99_us = round(r.p99);
      out.permission_decision_p50_us = round(r.p50);
      out.settings_stat_per_check_us = round(r.statUs);
    }
  }
  return { ...out, ...benchShellAnalysis(3000) };
}
