import type { HiddenFile, ReadableRequest, ReadableResult } from '../../../shared/worker-protocol';
import type { DecideOptions, PermissionEngine } from '../../core/permission/engine';

/**
 * main's answer to the worker's `permission.readable`: the files of a search result that the engine would not let
 * read_file read without asking (deny or ask). The engine judges each path exactly as it would a read_file call
 * (rules, sensitive-file defaults, real paths, agent mode), with `evaluateAll` (one reading of the settings and
 * trust per batch). Nothing is recorded in the audit log: no call is made, no person is asked (the search call
 * itself was decided and recorded).
 */
export async function judgeReadable(
  engine: PermissionEngine,
  request: ReadableRequest,
  options: DecideOptions,
): Promise<ReadableResult> {
  const paths = [...new Set(request.paths)];
  const evaluations = await engine.evaluateAll(
    paths.map((path) => ({ tool: 'read_file', input: { path } })),
    options,
  );
  const hidden: HiddenFile[] = [];
  paths.forEach((path, i) => {
    const verdict = evaluations[i]?.decision;
    // No verdict for a path is never a reason to show it.
    if (verdict?.decision === 'allow') return;
    hidden.push({
      path,
      decision: verdict?.decision ?? 'deny',
      reason: (verdict?.reason ?? 'not judged').slice(0, 2000),
    });
  });
  return { hidden };
}

/** Every path hidden: the answer when no prompt of this session is running (fail closed). */
export function hideAll(request: ReadableRequest, reason: string): ReadableResult {
  return { hidden: [...new Set(request.paths)].map((path) => ({ path, decision: 'deny' as const, reason })) };
}
