import type { AuditRecord } from '../../../shared/audit-contract';
import { callTarget } from '../../../shared/tools';

export interface AuditFilter {
  decision: 'all' | 'allow' | 'deny' | 'ask';
  /** `you`: decisions a person answered; `engine`: decided by rules, checks and modes. */
  who: 'all' | 'you' | 'engine';
  query: string;
}

export const NO_FILTER: AuditFilter = { decision: 'all', who: 'all', query: '' };

/** Who made the decision, in words. */
export function answeredBy(record: AuditRecord): string {
  if (record.source === 'approval') return 'you';
  if (record.decision === 'ask') return '(asked you)';
  return 'Gatehouse';
}

/** The lines that pass the filter: decision, who answered, and the search over tool, target, rule and reason. */
export function filterAudit(records: readonly AuditRecord[], filter: AuditFilter): AuditRecord[] {
  const q = filter.query.trim().toLowerCase();
  return records.filter((r) => {
    if (filter.decision !== 'all' && r.decision !== filter.decision) return false;
    if (filter.who === 'you' && r.source !== 'approval') return false;
    if (filter.who === 'engine' && r.source === 'approval') return false;
    if (!q) return true;
    return [r.tool, callTarget(r.input), r.rule ?? '', r.reason, r.source].some((t) => t.toLowerCase().includes(q));
  });
}
