import type { TokenUsage } from '../../../shared/conversation';
import { useChat } from '../chat/chat-store';
import { useSessionList } from '../chat/session-list-store';
import { sandboxShort, useSandboxState } from '../sandbox/SandboxBanner';
import { ProjectTrustChip } from '../trust/TrustFeature';
import { Shown } from '../display/Shown';
import { ConnectionBadge } from './ConnectionBadge';
import { WorkerStatusBadge } from './WorkerStatusBadge';

const n = (value: number): string => value.toLocaleString('en-US');
const usageText = (u: TokenUsage): string => `${n(u.inputTokens)} in · ${n(u.outputTokens)} out`;

/** Tokens of this run (the last one, once it ended) and of the whole session. */
function Tokens() {
  const usage = useChat((s) => s.usage);
  const running = useChat((s) => s.running);
  const sessionId = useChat((s) => s.sessionId);
  const finished = useSessionList((s) => s.sessions.find((x) => x.id === sessionId)?.usage ?? null);
  if (!usage && !finished) return null;
  const session =
    finished && running && usage
      ? {
          inputTokens: finished.inputTokens + usage.inputTokens,
          outputTokens: finished.outputTokens + usage.outputTokens,
        }
      : (finished ?? usage);
  return (
    <span className="status-item status-tokens">
      {usage ? <Shown data-testid="token-usage" text={`Tokens: ${usageText(usage)} this run`} lines="inline" /> : null}
      {session ? (
        <Shown
          className={usage ? 'muted' : undefined}
          text={`${usage ? ' · ' : 'Tokens: '}${usageText(session)} this session`}
          lines="inline"
        />
      ) : null}
    </span>
  );
}

/** The bar under the composer: trust, sandbox, worker and connection, tokens. */
export function StatusBar() {
  const sandbox = sandboxShort(useSandboxState((s) => s.state));
  return (
    <div className="status-bar" role="group" aria-label="Status">
      <ProjectTrustChip />
      <span className={`badge badge-${sandbox.tone}`} data-testid="sandbox-state">
        <Shown text={sandbox.text} lines="inline" />
      </span>
      <WorkerStatusBadge />
      <ConnectionBadge />
      <Tokens />
    </div>
  );
}
