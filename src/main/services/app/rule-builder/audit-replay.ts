import path from 'node:path';
import type { AuditRecord } from '../../../../shared/audit-contract';
import type { Decision } from '../../../../shared/permission';
import { REPLAY_CALLS, type ReplayDecision, type ReplayFlip } from '../../../../shared/rule-builder-contract';
import { callTarget } from '../../../../shared/tools';
import type { PermissionEngine } from '../../../core/permission/engine';
import { readAudit } from '../../../core/permission/audit-reader';
import { SessionStore } from '../../../core/session/session-store';

/** The open project's audit lines, newest first (lines written before the project was recorded: by its sessions). */
export async function projectAudit(configDir: string, project: string, limit: number): Promise<AuditRecord[]> {
  const sessions = new Set(
    (await new SessionStore({ configDir }).list()).filter((s) => s.projectRoot === project).map((s) => s.id),
  );
  const page = await readAudit({ file: path.join(configDir, 'audit.jsonl'), project, sessions, limit });
  return page.entries;
}

/** The distinct commands of the project's recent run_command calls, newest first. */
export function recentCommandsOf(entries: readonly AuditRecord[], max: number): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const command = e.tool === 'run_command' ? e.input.command : undefined;
    if (typeof command !== 'string' || !command.trim() || out.includes(command)) continue;
    out.push(command);
    if (out.length >= max) break;
  }
  return out;
}

interface ReplayedCall {
  key: string;
  tool: string;
  input: Record<string, unknown>;
  time: string;
  count: number;
  recorded: { decision: AuditRecord['decision']; source: string };
}

const keyOf = (e: AuditRecord): string => `${e.tool}\u0000${JSON.stringify(e.input)}`;

/**
 * The last `max` calls of the log, the same call once (with how often it came): one call may leave two lines (the
 * engine's ask, then the person's answer), and the newest line is what happened in the end.
 */
export function replayedCalls(entries: readonly AuditRecord[], max: number = REPLAY_CALLS): ReplayedCall[] {
  const byKey = new Map<string, ReplayedCall>();
  let calls = 0;
  let previous: { key: string; session: string } | null = null;
  for (const e of entries) {
    const key = keyOf(e);
    // Newest first: the engine's ask just below the answer it led to is the same call.
    const sameCall =
      previous !== null && previous.key === key && previous.session === e.session && e.decision === 'ask';
    previous = { key, session: e.session };
    if (sameCall) continue;
    if (calls >= max) break;
    calls++;
    const seen = byKey.get(key);
    if (seen) seen.count++;
    else
      byKey.set(key, {
        key,
        tool: e.tool,
        input: e.input,
        time: e.time,
        count: 1,
        recorded: { decision: e.decision, source: e.source },
      });
  }
  return [...byKey.values()];
}

function shown(d: Decision): ReplayDecision {
  return { decision: d.decision, source: d.source, rule: d.rule, reason: d.reason };
}

/**
 * Judges the calls with the engine as it is (`before`) and with the rule added (`after`, an engine built with the
 * rule pending in its file): the calls whose decision (allow, ask, deny) differs. Both engines read the same settings,
 * trust and disk; nothing is recorded in the audit log.
 */
export async function replay(
  calls: readonly ReplayedCall[],
  before: PermissionEngine,
  after: PermissionEngine,
): Promise<ReplayFlip[]> {
  const asCalls = calls.map((c) => ({ tool: c.tool, input: c.input }));
  const [was, would] = await Promise.all([before.evaluateAll(asCalls), after.evaluateAll(asCalls)]);
  const flips: ReplayFlip[] = [];
  calls.forEach((c, i) => {
    const b = was[i]!.decision;
    const a = would[i]!.decision;
    if (a.decision === b.decision) return;
    flips.push({
      time: c.time,
      tool: c.tool,
      target: callTarget(c.input) || c.tool,
      count: c.count,
      recorded: c.recorded,
      before: shown(b),
      after: shown(a),
    });
  });
  return flips;
}
