import { isMap, isScalar, isSeq, type Document, type LineCounter, type Pair } from 'yaml';
import { closest } from '../../../shared/closest';

/**
 * Keys a settings file holds that Gatehouse does not know (`Deny:`, `permission:`): each is a problem with its file,
 * line and a suggestion ("did you mean deny?"), never silently ignored. An unknown key never loosens anything: the
 * file's known rules apply as usual, and a misspelt `deny`/`ask` list (or a misspelt `permissions` block holding
 * them) is applied as deny/ask rules until the key is fixed; a misspelt allow list is never applied.
 */
export interface SettingsKeyProblem {
  file: string;
  line: number | null;
  column: number | null;
  /** Where the key is, as written: `Deny`, `permissions.Deny`. */
  key: string;
  /** The known key it is probably meant to be (`permissions.deny`), or null. */
  suggestion: string | null;
  reason: string;
  /** What it means for the rules: ignored, or its deny/ask rules applied until the key is fixed. */
  effect: string;
}

export type SettingsFormat = 'gatehouse' | 'claude';

const PERMISSION_KEYS = {
  gatehouse: ['mode', 'allow', 'ask', 'deny', 'additionalDirectories'],
  claude: ['allow', 'ask', 'deny', 'additionalDirectories', 'defaultMode', 'disableBypassPermissionsMode'],
} as const;
const TOP_KEYS = [
  'permissions',
  'trust',
  'sandbox',
  'model',
  'auto',
  'ui',
  'updates',
  'hooks',
  'mcpServers',
  'subagents',
  'checkpoints',
  'network',
  '$schema',
];
const TRUST_KEYS = ['default'];
const NETWORK_KEYS = ['caFile'];

/** Rules to apply from a misspelt restrictive key: only deny and ask lists, never allow. */
export interface RecoveredRules {
  deny: string[];
  ask: string[];
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function keyText(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** Finds unknown keys at the top level, in `permissions`, `trust` and `network`; recovers misspelt deny/ask lists. */
export function findUnknownKeys(
  file: string,
  doc: Document,
  counter: LineCounter,
  format: SettingsFormat,
): { problems: SettingsKeyProblem[]; recovered: RecoveredRules } {
  const problems: SettingsKeyProblem[] = [];
  const recovered: RecoveredRules = { deny: [], ask: [] };
  const permissionKeys: readonly string[] = PERMISSION_KEYS[format];
  const at = (pair: Pair): { line: number | null; column: number | null } => {
    const range = (pair.key as { range?: [number, number, number] } | null)?.range;
    if (!range) return { line: null, column: null };
    const pos = counter.linePos(range[0]);
    return { line: pos.line, column: pos.col };
  };
  const recover = (suggestion: string | null, value: unknown): string => {
    const behaviour = suggestion?.split('.').pop();
    if (behaviour === 'deny' || behaviour === 'ask') {
      const rules = stringsOf(value);
      recovered[behaviour].push(...rules);
      if (rules.length)
        return `its ${rules.length} rule(s) are applied as ${behaviour} rules until you fix the key (never loosens)`;
    }
    if (suggestion === 'permissions' && value && typeof value === 'object' && !Array.isArray(value)) {
      const block = value as Record<string, unknown>;
      const kept: string[] = [];
      for (const [k, v] of Object.entries(block)) {
        const b = closest(k, permissionKeys);
        if (b === 'deny' || b === 'ask') {
          recovered[b].push(...stringsOf(v));
          kept.push(b);
        }
      }
      if (kept.length)
        return `its ${kept.join(' and ')} rules are applied until you fix the key, its other keys are ignored (never loosens)`;
    }
    return behaviour === 'allow' ? 'ignored: its rules are not applied' : 'ignored';
  };
  const report = (pair: Pair, where: string, candidates: readonly string[], value: unknown): void => {
    const key = keyText(pair);
    const suggestion = closest(key, candidates);
    const hint = suggestion ? ` (did you mean ${suggestion}?)` : '';
    const effect = recover(suggestion, value);
    problems.push({
      file,
      ...at(pair),
      key: where ? `${where}.${key}` : key,
      suggestion,
      reason: `unknown key "${where ? `${where}.${key}` : key}"${hint}`,
      effect,
    });
  };
  const root = doc.contents;
  if (!isMap(root)) return { problems, recovered };
  for (const pair of root.items) {
    const key = keyText(pair);
    const value: unknown =
      isMap(pair.value) || isSeq(pair.value) || isScalar(pair.value) ? pair.value.toJSON() : undefined;
    if (format === 'claude') {
      // Claude Code's files have many keys of their own: only a near miss of "permissions" is reported there.
      if (key !== 'permissions' && closest(key, ['permissions']) === 'permissions')
        report(pair, '', ['permissions'], value);
    } else if (!TOP_KEYS.includes(key)) {
      report(pair, '', [...TOP_KEYS, ...permissionKeys.map((k) => `permissions.${k}`)], value);
    }
  }
  const nested = (name: string, known: readonly string[]): void => {
    const block = doc.get(name, true);
    if (!isMap(block)) return;
    for (const pair of block.items) {
      const value: unknown =
        isMap(pair.value) || isSeq(pair.value) || isScalar(pair.value) ? pair.value.toJSON() : undefined;
      if (!known.includes(keyText(pair))) report(pair, name, known, value);
    }
  };
  nested('permissions', permissionKeys);
  if (format === 'gatehouse') {
    nested('trust', TRUST_KEYS);
    nested('network', NETWORK_KEYS);
  }
  return { problems, recovered };
}
