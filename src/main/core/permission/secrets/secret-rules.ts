import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import gitleaks from './gitleaks.toml';

const require = createRequire(import.meta.url);
let re2js: typeof import('re2js') | null = null;

/**
 * re2js, required when a first pattern is compiled: it is a quarter of a megabyte of code with Unicode tables built
 * as it loads, and most texts hold none of the rules' keywords (a one-shot `permissions check` then never needs it).
 */
function compileRe2(pattern: string): RE2JS {
  re2js ??= require('re2js') as typeof import('re2js');
  return re2js.RE2JS.compile(pattern);
}

/**
 * gitleaks' default secret rules (vendored data, see README.md), run with re2js: RE2 syntax as gitleaks writes it,
 * linear-time matching (an untrusted text cannot make a pattern run for ever). A rule runs only when one of its
 * keywords occurs in the text; its regex, and its allowlists' regexes, are compiled on first use (a one-shot CLI
 * check redacts one short call: compiling the whole set would cost it more than everything else it does). The TOML
 * is parsed at build time (scripts/vite-toml-data.mts).
 */

interface Allowlist {
  /** The patterns as written; compiled on first use into `compiled`. */
  sources: string[];
  compiled: RE2JS[] | null;
  target: 'secret' | 'match' | 'line';
  stopwords: string[];
}

interface SecretRule {
  id: string;
  keywords: string[];
  source: string;
  compiled: RE2JS | null;
  secretGroup: number;
  entropy: number;
  allowlists: Allowlist[];
  /**
   * gitleaks' keyword template (`[\w.-]{0,50}?(?:keyword)…value`) only matches near a keyword: such a rule runs on
   * windows around the keywords' occurrences, not the whole text (re2js is linear but slow on long texts).
   */
  windowed: boolean;
}

/** Before a keyword: the template's 50-character prefix (and a margin); after it: operator, quotes and the value. */
const WINDOW_BEFORE = 64;
const WINDOW_AFTER = 400;

export interface SecretFinding {
  ruleId: string;
  /** The secret's span in the text (the rule's secret group, else the whole match). */
  start: number;
  end: number;
}

type Raw = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function compileAll(patterns: readonly string[]): RE2JS[] {
  const out: RE2JS[] = [];
  for (const p of patterns) {
    try {
      out.push(compileRe2(p));
    } catch {
      // a pattern re2js cannot read is left out (tests count how many rules load)
    }
  }
  return out;
}

function allowlistOf(raw: Raw): Allowlist | null {
  // Path-only allowlists (and AND-conditions on paths) say nothing about text: they never allow here.
  if (
    raw.paths !== undefined &&
    (raw.condition === 'AND' || (raw.regexes === undefined && raw.stopwords === undefined))
  )
    return null;
  const target = raw.regexTarget === 'match' || raw.regexTarget === 'line' ? raw.regexTarget : 'secret';
  return {
    sources: strings(raw.regexes),
    compiled: null,
    target,
    stopwords: strings(raw.stopwords).map((s) => s.toLowerCase()),
  };
}

function regexesOf(list: Allowlist): RE2JS[] {
  list.compiled ??= compileAll(list.sources);
  return list.compiled;
}

let loaded: { rules: SecretRule[]; global: Allowlist } | null = null;

function load(): { rules: SecretRule[]; global: Allowlist } {
  if (loaded) return loaded;
  const config = (typeof gitleaks === 'object' && gitleaks !== null ? gitleaks : {}) as Raw;
  const rules: SecretRule[] = [];
  for (const r of (Array.isArray(config.rules) ? config.rules : []) as Raw[]) {
    if (typeof r.id !== 'string' || typeof r.regex !== 'string') continue;
    rules.push({
      id: r.id,
      keywords: strings(r.keywords).map((k) => k.toLowerCase()),
      source: r.regex,
      compiled: null,
      secretGroup: typeof r.secretGroup === 'number' ? r.secretGroup : 0,
      entropy: typeof r.entropy === 'number' ? r.entropy : 0,
      allowlists: (Array.isArray(r.allowlists) ? (r.allowlists as Raw[]) : [])
        .map(allowlistOf)
        .filter((a): a is Allowlist => a !== null),
      windowed: /^(?:\(\?i\))?\[\\w\.-\]\{0,50\}\?\(\?/.test(r.regex) && strings(r.keywords).length > 0,
    });
  }
  const globalRaw = (config.allowlist ?? {}) as Raw;
  loaded = {
    rules,
    global: {
      sources: strings(globalRaw.regexes),
      compiled: null,
      target: 'secret',
      stopwords: strings(globalRaw.stopwords).map((s) => s.toLowerCase()),
    },
  };
  return loaded;
}

/** How many rules of the vendored set load and compile (a test keeps this from silently dropping). */
export function loadedRuleIds(): string[] {
  const { rules } = load();
  return rules.filter((r) => compiled(r) !== null).map((r) => r.id);
}

function compiled(rule: SecretRule): RE2JS | null {
  if (rule.compiled === null && rule.source !== '') {
    try {
      rule.compiled = compileRe2(rule.source);
    } catch {
      rule.source = '';
    }
  }
  return rule.compiled;
}

/** Shannon entropy (bits per character), as gitleaks measures a candidate secret. */
function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function allowed(list: Allowlist, secret: string, match: string, line: string): boolean {
  const target = list.target === 'match' ? match : list.target === 'line' ? line : secret;
  const lower = secret.toLowerCase();
  if (list.stopwords.some((w) => lower.includes(w))) return true;
  return regexesOf(list).some((re) => re.matcher(target).find());
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

/** The stretches of `text` around every occurrence of the keywords, merged. */
function keywordWindows(lower: string, keywords: string[]): [number, number][] {
  const at: [number, number][] = [];
  for (const k of keywords) {
    for (let i = lower.indexOf(k); i !== -1; i = lower.indexOf(k, i + 1))
      at.push([Math.max(0, i - WINDOW_BEFORE), Math.min(lower.length, i + k.length + WINDOW_AFTER)]);
  }
  at.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of at) {
    const last = merged[merged.length - 1];
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else merged.push([w[0], w[1]]);
  }
  return merged;
}

/** Every secret the rules find in `text` (overlaps possible). */
export function findSecrets(text: string): SecretFinding[] {
  const { rules, global } = load();
  const lower = text.toLowerCase();
  const findings: SecretFinding[] = [];
  for (const rule of rules) {
    if (rule.keywords.length > 0 && !rule.keywords.some((k) => lower.includes(k))) continue;
    const windows = rule.windowed ? keywordWindows(lower, rule.keywords) : [[0, text.length] as [number, number]];
    for (const [from, to] of windows) findings.push(...matchRule(rule, text, from, to, global));
  }
  return findings;
}

function matchRule(rule: SecretRule, full: string, from: number, to: number, global: Allowlist): SecretFinding[] {
  const re = compiled(rule);
  if (!re) return [];
  const text = from === 0 && to === full.length ? full : full.slice(from, to);
  const findings: SecretFinding[] = [];
  const m = re.matcher(text);
  while (m.find()) {
    const wanted = rule.secretGroup;
    const group = wanted > 0 && wanted <= m.groupCount() && m.group(wanted) !== null ? wanted : firstGroup(m);
    const start = m.start(group);
    const end = m.end(group);
    if (start < 0 || end <= start) continue;
    const secret = text.slice(start, end);
    if (rule.entropy > 0 && shannonEntropy(secret) < rule.entropy) continue;
    const match = m.group(0) ?? secret;
    const line = lineAround(text, start, end);
    if (allowed(global, secret, match, line) || rule.allowlists.some((a) => allowed(a, secret, match, line))) continue;
    findings.push({ ruleId: rule.id, start: start + from, end: end + from });
  }
  return findings;
}

/** The first capture group that matched (gitleaks' default secret group), else the whole match. */
function firstGroup(m: ReturnType<RE2JS['matcher']>): number {
  for (let g = 1; g <= m.groupCount(); g++) if (m.group(g) !== null) return g;
  return 0;
}
