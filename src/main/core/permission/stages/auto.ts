import type { Decision } from '../../../../shared/permission';
import type { EngineState } from '../stage-types';

/** The sources whose asks the auto-mode classifier may answer: the mode table's and the defaults'. */
const CLASSIFIABLE_SOURCES: ReadonlySet<Decision['source']> = new Set(['mode', 'defaults']);

/**
 * Marks an `ask` the classifier may answer in auto mode (`classifiable: true`). Only the engine sets the mark, on
 * the final decision: an ask the mode or the defaults made, in a trusted project. An ask rule, a hook's ask, trust,
 * a broken settings file, an unreadable command, a command outside the sandbox (`excluded`), a hard check and
 * every deny are never marked: they always reach the person.
 */
export function markClassifiable(
  result: Decision,
  state: Pick<EngineState, 'mode' | 'trusted'>,
  excluded: boolean,
): Decision {
  if (state.mode !== 'auto' || !state.trusted || excluded || result.decision !== 'ask') return result;
  return CLASSIFIABLE_SOURCES.has(result.source) ? { ...result, classifiable: true } : result;
}
