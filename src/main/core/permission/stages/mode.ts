import type { Decision, DecisionKind, PermissionMode } from '../../../../shared/permission';
import type { ToolCategory } from '../../../../shared/tools';
import { decision, type CallContext } from '../stage-types';

/** Stage 7, the contract's mode fallback table. */
const MODE_TABLE: Record<PermissionMode, Record<ToolCategory, DecisionKind>> = {
  strict: { read: 'ask', write: 'ask', exec: 'ask' },
  default: { read: 'allow', write: 'ask', exec: 'ask' },
  acceptEdits: { read: 'allow', write: 'allow', exec: 'ask' },
  // auto: as acceptEdits, and its asks (with the defaults' asks) go to the classifier before the person.
  auto: { read: 'allow', write: 'allow', exec: 'ask' },
  bypassPermissions: { read: 'allow', write: 'allow', exec: 'allow' },
};

const CATEGORY_WORDS: Record<ToolCategory, string> = { read: 'a read', write: 'a write', exec: 'a command' };

/** The mode table's answer for a category. */
export function modeTableKind(mode: PermissionMode, category: ToolCategory): DecisionKind {
  return MODE_TABLE[mode][category];
}

/** Stage 7 always decides: it is the last word when nothing above did. */
export function modeStage(ctx: CallContext): Decision {
  const kind = MODE_TABLE[ctx.mode][ctx.category];
  const what =
    ctx.tool === 'run_command' && ctx.category === 'read' ? 'a read-only command' : CATEGORY_WORDS[ctx.category];
  return decision(
    kind,
    'mode',
    `${ctx.mode} mode: ${what} ${kind === 'allow' ? 'is allowed' : 'asks'} when no rule decides`,
  );
}
