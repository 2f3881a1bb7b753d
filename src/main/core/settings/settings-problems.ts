import type { SettingsSnapshot } from './settings-store';

/** One problem with a settings file, as `rules list`, the rules editor and the run/rpc warnings show it. */
export interface SettingsProblem {
  file: string;
  line: number | null;
  column: number | null;
  reason: string;
  kind: 'file' | 'unknownKey';
  suggestion: string | null;
  /** What it means for the rules, in words. */
  effect: string;
}

const LAST_GOOD_EFFECT = 'not applied; its last good version stays in force';
const UNKNOWN_RULES_EFFECT =
  'not applied, and no earlier good version of it is known: its deny and ask rules are unknown, so every call that would be allowed asks until it is fixed';

/** Every file problem and unknown key of a snapshot, file problems first. */
export function settingsProblems(snapshot: SettingsSnapshot): SettingsProblem[] {
  const unknown = new Set(snapshot.unknownRules.map((u) => u.file));
  return [
    ...snapshot.fileErrors.map((e) => ({
      file: e.file,
      line: e.line,
      column: e.column,
      reason: e.reason,
      kind: 'file' as const,
      suggestion: e.suggestion ?? null,
      effect: unknown.has(e.file) ? UNKNOWN_RULES_EFFECT : (e.effect ?? LAST_GOOD_EFFECT),
    })),
    ...snapshot.keyProblems.map((k) => ({
      file: k.file,
      line: k.line,
      column: k.column,
      reason: k.reason,
      kind: 'unknownKey' as const,
      suggestion: k.suggestion,
      effect: `${k.effect}; the rest of the file applies`,
    })),
  ];
}

/** One line for stderr or a text list: `file:line: reason (effect)`. */
export function problemLine(p: SettingsProblem): string {
  return `${p.file}${p.line !== null ? `:${p.line}` : ''}: ${p.reason} (${p.effect})`;
}

/** The lines a shell prints once per run on stderr (`run`, `rpc`, `permissions check`). */
export function settingsWarnings(snapshot: SettingsSnapshot): string[] {
  return settingsProblems(snapshot).map(
    (p) => `${p.kind === 'file' ? 'settings error' : 'settings warning'}: ${problemLine(p)}`,
  );
}
