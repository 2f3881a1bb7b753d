import type { HiddenFile, ReadableRequest, ReadableResult } from '../../shared/worker-protocol';
import type { DecideOptions, PermissionEngine } from '../permission';

/**
 * main's answer to the worker's `permission.readable`: the files of a search result that the engine would not let
 * read_file read without asking (deny or ask). The engine judges each path exactly as it would a read_file call
 * (rules, sensitive-file defaults, real paths, agent mode), with `evaluate`: nothing is recorded in the audit log
 * (no call is made, no person is asked; the search call itself was decided and recorded).
 */
export function judgeReadable(engine: PermissionEngine, request: ReadableRequest, options: DecideOptions): ReadableResult {
  const hidden: HiddenFile[] = [];
  for (const path of new Set(request.paths)) {
    const { decision, reason } = engine.evaluate({ tool: 'read_file', input: { path } }, options).decision;
    if (decision === 'allow') continue;
    hidden.push({ path, decision, reason: reason.slice(0, 2000) });
  }
  return { hidden };
}

/** Every path hidden: the answer when no prompt of this session is running (fail closed). */
export function hideAll(request: ReadableRequest, reason: string): ReadableResult {
  return { hidden: [...new Set(request.paths)].map((path) => ({ path, decision: 'deny' as const, reason })) };
}
