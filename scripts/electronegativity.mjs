// Runs Electronegativity (@doyensec/electronegativity) on src/ and fails on any HIGH (or CRITICAL) finding.
//
// Usage: node scripts/electronegativity.mjs [--input DIR] [--output FILE.csv] [--json] [--online]
//
// The package's own CLI (`npx electronegativity`) is broken with the commander version npm hoists next to it
// (`program.version is not a function`), so this calls its documented programmatic entry instead.
// Offline unless --online: the package fetches its messages' translations and Electron's release list from GitHub on
// every run (requests with retries: ~15 s of waiting where there is no network, and a result that depends on
// GitHub). Offline, those requests fail at once, as they do without a network: the package's own en-US messages are
// used and the check for security fixes in newer Electron releases (AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK) is
// skipped. `--online` lets them through.
import Module, { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const input = path.resolve(option('--input', 'src'));
const output = option('--output', null);
const asJson = args.includes('--json');
const electronVersion = JSON.parse(fs.readFileSync(require.resolve('electron/package.json'), 'utf8')).version;

const FAILING = new Set(['HIGH', 'CRITICAL']);

const packageDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));
const load = Module._load;
const offline = () => Promise.reject(new Error('offline (npm run electronegativity -- --online to allow it)'));
offline.head = offline;
Module._load = function (request, parent, ...rest) {
  if (request === 'got' && !args.includes('--online') && parent?.filename?.startsWith(packageDir + path.sep))
    return offline;
  return load.call(this, request, parent, ...rest);
};
const run = require('@doyensec/electronegativity');
Module._load = load;
const result = await run({
  input,
  output: output ?? undefined,
  isSarif: false,
  customScan: [],
  excludeFromScan: [],
  severitySet: undefined,
  confidenceSet: undefined,
  isRelative: true,
  isVerbose: false,
  electronVersionOverride: electronVersion,
  parserPlugins: [],
});

const findings = result.issues.map((issue) => ({
  check: issue.id,
  severity: issue.severity.name,
  confidence: issue.confidence.name,
  file: issue.file === 'N/A' ? '(whole app)' : path.relative(process.cwd(), path.resolve(input, issue.file)),
  line: issue.location.line,
  column: issue.location.column,
  manualReview: Boolean(issue.manualReview),
  description: issue.description,
}));
const failing = findings.filter((f) => FAILING.has(f.severity));
const parseErrors = result.errors.filter((e) => !e.tolerable);

if (asJson) {
  console.log(
    JSON.stringify({
      input,
      checks: result.globalChecks + result.atomicChecks,
      findings,
      parseErrors,
      failing: failing.length,
    }),
  );
} else {
  console.log(
    `electronegativity ${input}: ${result.globalChecks + result.atomicChecks} checks, ${findings.length} finding(s), ${failing.length} HIGH or worse`,
  );
  for (const f of findings) {
    const mark = FAILING.has(f.severity) ? 'FAIL' : 'note';
    console.log(
      `  ${mark} ${f.severity}/${f.confidence} ${f.check} ${f.file}:${f.line}:${f.column}${f.manualReview ? ' (review)' : ''}`,
    );
  }
  for (const e of parseErrors) console.log(`  parse error ${e.file}: ${e.message}`);
}
process.exitCode = failing.length > 0 || parseErrors.length > 0 ? 1 : 0;
