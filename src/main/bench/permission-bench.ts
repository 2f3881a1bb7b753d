import { analyzeCommand, initShellParser } from '../permission/command';
import { createBenchEngine, measureStatPerCheckUs } from '../permission/bench-support';
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
    for (let i = 0; i < 400; i++) engine.decide(calls[i % calls.length]);
    const samples: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const t = process.hrtime.bigint();
      engine.decide(calls[i % calls.length]);
      samples.push(usSince(t));
    }
    return { p50: percentile(samples, 50), p99: percentile(samples, 99), statUs: measureStatPerCheckUs(engine, 500) };
  } finally {
    cleanup();
  }
}

/** permission_decision_p99_us at 1,000 rules (plus the growth at 10..10,000) and shell_analysis_p99_us. */
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
  const samples: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const cmd = COMMANDS[i % COMMANDS.length] as string;
    const t = process.hrtime.bigint();
    analyzeCommand(cmd);
    samples.push(usSince(t));
  }
  out.shell_analysis_p50_us = round(percentile(samples, 50));
  out.shell_analysis_p99_us = round(percentile(samples, 99));
  return out;
}
