import type { RuleBehavior } from '../../../../shared/permission';
import { closest } from '../../../../shared/closest';
import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';
import { parseRule } from '../../rule-syntax/parse-rule';

/**
 * What a person should know about a rule before relying on it, in one place for the rules editor, the trust
 * dialog, the approval's rule field and `gatehouse rules list|add`: it does not parse (`error`); it names a tool
 * Gatehouse does not have (kept, matches nothing; "did you mean Bash?"); or a hard check always overrides it, so
 * an allow rule can never take effect (path confinement, self-protection, the built-in deny list).
 */
export interface RuleLint {
  /** The rule does not parse: it is skipped. */
  error: string | null;
  /** It parses but will not do what it seems to. */
  warnings: string[];
}

/** Tool names a rule may use (Claude Code's and Gatehouse's own). */
const KNOWN_TOOLS = [
  'Bash',
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'Glob',
  'Grep',
  'run_command',
  'read_file',
  'write_file',
  'edit_file',
  'find_files',
  'search_code',
];
/** Claude Code tools Gatehouse does not have: named as such, not as typos. */
const OTHER_AGENTS_TOOLS = new Set(['WebFetch', 'WebSearch', 'NotebookEdit', 'NotebookRead', 'Task', 'TodoWrite']);
/** Commands of the built-in deny list: no rule allows them. */
const DENIED_PROGRAMS = new Set([
  'sudo',
  'su',
  'doas',
  'pkexec',
  'sudoedit',
  'run0',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
]);
const WRITE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'write_file', 'edit_file']);

/** A path pattern that can only match outside the project (`../x`, `//abs`, `~/x`). */
function outsideProject(pattern: string): boolean {
  return pattern.startsWith('../') || pattern === '..' || pattern.startsWith('//') || pattern.startsWith('~');
}

/** A path pattern aimed at Gatehouse's own settings folders (`.gatehouse/`, `.claude/`). */
function selfProtected(pattern: string): boolean {
  return /(^|\/)\.(gatehouse|claude)(\/|$)/.test(pattern.replace(/^\.\//, ''));
}

/**
 * On Windows a rule such as `//Users/**` (written as on macOS) names the network share `\\Users`, never a drive:
 * the rule form of `C:\Users` is `//c/Users`. Null when the pattern is not such a rule.
 */
function shareNotDrive(pattern: string, sys: PathSystem): string | null {
  if (sys.flavor !== 'win32' || !/^\/\/[^/*?[{]{2,}/.test(pattern) || /^\/\/[A-Za-z]:/.test(pattern)) return null;
  const literal = pattern.slice(2).split('/').slice(0, 2);
  const share = literal.filter((n, i) => i === 0 || !/[*?[{]/.test(n)).join('\\');
  return `on Windows ${pattern} names the network share \\\\${share}, not a folder of a drive: write //c/${pattern.slice(2)} for drive C (or ///${pattern.slice(2)} to say the share)`;
}

export function lintRule(text: string, behavior: RuleBehavior = 'allow', sys: PathSystem = HOST_PATHS): RuleLint {
  const parsed = parseRule(text);
  if (!parsed.ok) return { error: parsed.reason, warnings: [] };
  const rule = parsed.rule;
  const warnings: string[] = [];
  if (rule.kind === 'none') {
    const near =
      rule.toolName.startsWith('mcp__') || OTHER_AGENTS_TOOLS.has(rule.toolName)
        ? null
        : closest(rule.toolName, KNOWN_TOOLS);
    warnings.push(
      near
        ? `unknown tool "${rule.toolName}": did you mean ${near}? As written the rule matches nothing`
        : `Gatehouse has no tool "${rule.toolName}": the rule is kept but matches nothing`,
    );
    return { error: null, warnings };
  }
  const share = rule.kind === 'path' && rule.specifier !== null ? shareNotDrive(rule.specifier, sys) : null;
  if (share) warnings.push(share);
  if (behavior === 'deny' || rule.specifier === null) return { error: null, warnings };
  if (rule.kind === 'path' && outsideProject(rule.specifier))
    warnings.push(
      'path confinement always wins: file tools never reach outside the project and its additional directories, ' +
        'whatever this rule says (add the folder as an additional directory instead)',
    );
  if (rule.kind === 'path' && behavior === 'allow' && WRITE_TOOLS.has(rule.toolName) && selfProtected(rule.specifier))
    warnings.push(
      "self-protection always wins: the agent never writes Gatehouse's own settings (.gatehouse/, .claude/), " +
        'so this rule can never allow a write there',
    );
  if (rule.kind === 'command') {
    const program = rule.specifier.split(/[\s:]/)[0] ?? '';
    if (DENIED_PROGRAMS.has(program))
      warnings.push(`the built-in deny list always wins: "${program}" is denied whatever the rules say`);
  }
  return { error: null, warnings };
}
