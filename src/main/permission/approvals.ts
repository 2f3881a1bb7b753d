import type { Decision } from '../../shared/permission';
import { isUnsandboxedCall } from '../../shared/tools';
import { ensureGitExcluded } from '../settings/git-exclude';
import { addRuleToFile } from '../settings/edit-rules-file';
import { localSettingsFile } from '../settings/settings-locations';
import type { DecideOptions, PermissionEngine } from './engine';
import { parseRule } from './rules/parse-rule';
import { decision } from './stage-types';
import { suggestRules } from './suggest-rule';

/** A person's answer to an `ask`. `rules` are the (possibly edited) suggestions for session/always. */
export type ApprovalAnswer =
  | { kind: 'once' }
  | { kind: 'session'; rules?: string[] }
  | { kind: 'always'; rules?: string[] }
  | { kind: 'deny'; note?: string };

/** What the engine proposes for a call that asks: the rules "allow for this session/always" would add. */
export async function proposeRules(
  engine: PermissionEngine,
  call: unknown,
  options: DecideOptions = {},
): Promise<string[]> {
  const { context, mcp } = await engine.evaluateAsync(call, options);
  if (mcp) return [mcp.name];
  if (context === null || isUnsandboxedCall(context.tool, context.input)) return [];
  return suggestRules(context);
}

function checkedRules(rules: readonly string[]): string[] {
  for (const r of rules) {
    const parsed = parseRule(r);
    if (!parsed.ok) throw new Error(`rule "${r}" does not parse: ${parsed.reason}`);
  }
  return rules.map((r) => r.trim());
}

/**
 * Stage 8: applies a person's answer to a call the engine asked about. The call is evaluated again first: only a
 * call that still asks can be approved (nothing approves a deny, a hard check or plan mode). "session" adds session
 * rules; "always" also writes them to the project's local settings file (kept out of git). Every answer is
 * appended to the audit log. "always" writes under the file's lock (parallel writers lose nothing). `options` must be the ones the call was decided with (agent and session mode).
 */
export async function applyApproval(
  engine: PermissionEngine,
  call: unknown,
  answer: ApprovalAnswer,
  options: DecideOptions = {},
): Promise<Decision> {
  return (await applyApprovalAnswer(engine, call, answer, options)).decision;
}

/** `applyApproval`, also saying which allow rules the answer added (none for once, deny, or an answer that counted once). */
export async function applyApprovalAnswer(
  engine: PermissionEngine,
  call: unknown,
  answer: ApprovalAnswer,
  options: DecideOptions = {},
  /** Completes the decision before it is recorded (the gate adds the sandbox a command runs in). */
  complete: (d: Decision) => Decision = (d) => d,
): Promise<{ decision: Decision; rulesAdded: string[] }> {
  const { decision: current, context, mcp } = await engine.evaluateAsync(call, options);
  if (current.decision !== 'ask' || (context === null && !mcp)) return { decision: current, rulesAdded: [] };
  let rulesAdded: string[] = [];
  let result: Decision;
  if (context && isUnsandboxedCall(context.tool, context.input) && answer.kind !== 'deny') {
    // Outside the sandbox is "allow once" or nothing: a session/always answer is downgraded, no rule is stored.
    const note =
      answer.kind === 'once' ? '' : ` (your "${answer.kind}" answer counts once: such approvals are never remembered)`;
    result = complete(decision('allow', 'approval', `allowed once by you, outside the OS sandbox${note}`));
    engine.record(call, result);
    return { decision: result, rulesAdded };
  }
  if (current.source === 'hard' && answer.kind !== 'deny') {
    // A hard ask (a run-time write reaching a protected folder) is "allow once" or nothing: no rule could allow it.
    const note =
      answer.kind === 'once' ? '' : ` (your "${answer.kind}" answer counts once: no rule can allow this call)`;
    result = decision('allow', 'approval', `allowed once by you${note}`);
    engine.record(call, result);
    return { decision: result, rulesAdded };
  }
  switch (answer.kind) {
    case 'once':
      result = decision('allow', 'approval', 'allowed once by you');
      break;
    case 'session':
    case 'always': {
      const rules = checkedRules(answer.rules ?? (context ? suggestRules(context) : mcp ? [mcp.name] : []));
      if (rules.length === 0) {
        // No rule covers this call (an unreadable command): there is nothing to remember, so it counts once.
        result = decision(
          'allow',
          'approval',
          `allowed once by you (your "${answer.kind}" answer counts once: no rule can describe this call)`,
        );
        break;
      }
      rulesAdded = rules;
      let where = '';
      if (answer.kind === 'always') {
        const root = engine.state.projectRoot;
        const file = localSettingsFile(root);
        for (const r of rules) await addRuleToFile(file, 'allow', r);
        const excluded = await ensureGitExcluded(root, file);
        where = `: written to .gatehouse/settings.local.yaml${excluded ? ' (now in .git/info/exclude: git ignores it)' : ''}`;
        // The local file applies from the next call (its rules then report `local`); an untrusted project's local
        // allow rules are not loaded, so there the answer also holds as a session rule.
        const trust = engine.state.options.trust;
        const trusted = await (trust.isTrustedAsync?.(root) ?? Promise.resolve(trust.isTrusted(root)));
        if (!trusted) for (const r of rules) engine.state.addSessionRule('allow', r);
      } else for (const r of rules) engine.state.addSessionRule('allow', r);
      const scope = answer.kind === 'session' ? 'for this session' : 'always in this project';
      result = decision('allow', 'approval', `allowed ${scope} by you${where}`, rules.length ? rules.join(', ') : null);
      break;
    }
    case 'deny':
      result = decision('deny', 'approval', answer.note ? `denied by you: ${answer.note}` : 'denied by you');
      break;
  }
  result = complete(result);
  engine.record(call, result);
  return { decision: result, rulesAdded };
}

/** Where no person can answer (print mode, a background sub-agent), an ask becomes a deny: "approval required". */
export function withoutPerson(d: Decision): Decision {
  if (d.decision !== 'ask') return d;
  return { decision: 'deny', source: d.source, rule: d.rule, reason: `approval required: ${d.reason}` };
}
