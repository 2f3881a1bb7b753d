import type { TrustStatus } from '../../../shared/trust-contract';
import { Shown, shownText } from '../display/Shown';

/** The words for a folder's trust, short (the chip) and for its accessible name. */
function trustLabel(status: TrustStatus): string {
  if (status.decision === 'error') return 'Untrusted (store error)';
  if (status.trusted) return status.decision === 'session' ? 'Trusted (session)' : 'Trusted';
  if (status.needsDecision) return 'Untrusted (not decided)';
  return 'Untrusted';
}

/** The header chip: the open folder's trust; clicking it opens the choice again. */
export function TrustChip({ status, onOpen }: { status: TrustStatus | null; onOpen(): void }) {
  if (!status) return null;
  const state = status.trusted ? 'trusted' : 'untrusted';
  return (
    <button
      type="button"
      className={`badge trust-chip ${status.trusted ? 'badge-ok' : 'badge-bad'}`}
      aria-label={`Project trust: ${state}`}
      aria-haspopup="dialog"
      title={shownText(status.reason)}
      data-trusted={status.trusted ? 'true' : 'false'}
      onClick={onOpen}
    >
      <Shown text={trustLabel(status)} lines="inline" />
    </button>
  );
}
