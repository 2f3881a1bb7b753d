import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { SessionSummary } from '../../../shared/chat-contract';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { useShell } from '../app/store';
import { SidebarIcon } from '../app/sidebar-icons';
import { showView } from '../app/view-store';
import { Shown, shownText } from '../display/Shown';
import { useChat } from './chat-store';
import {
  deleteSession,
  dismissUndo,
  refreshSessions,
  renameSession,
  resumeSession,
  sessionTitle,
  startNewSession,
  undoDelete,
  useSessionList,
} from './session-list-store';

function PencilIcon() {
  return (
    <svg
      aria-hidden="true"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <path d="M11 2.5l2.5 2.5L5.5 13H3v-2.5z" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg
      aria-hidden="true"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.8 6.5v5M9.2 6.5v5" />
    </svg>
  );
}

/** When, short: the time today, else the date. */
function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

type SessionState = 'running' | 'waiting' | 'failed' | null;

function stateOf(s: SessionSummary, open: string | null, running: boolean, waiting: boolean): SessionState {
  if (s.id === open && waiting) return 'waiting';
  if (s.id === open && running) return 'running';
  return s.lastStatus === 'error' ? 'failed' : null;
}

const STATE_WORDS: Record<Exclude<SessionState, null>, string> = {
  running: 'running',
  waiting: 'waiting for approval',
  failed: 'failed',
};

function RenameField({ session, onDone }: { session: SessionSummary; onDone(): void }) {
  const api = useApi();
  const [value, setValue] = useState(session.title ?? sessionTitle(session));
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.select(), []);
  const save = () => {
    void renameSession(api, session.id, value.trim());
    onDone();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onDone();
    }
  };
  return (
    <input
      ref={ref}
      type="text"
      className="session-rename"
      aria-label="Session name (Enter saves, Esc cancels)"
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={onKeyDown}
      onBlur={save}
    />
  );
}

function SessionRow({ session, state, current }: { session: SessionSummary; state: SessionState; current: boolean }) {
  const api = useApi();
  const running = useChat((s) => s.running);
  const [renaming, setRenaming] = useState(false);
  const metaId = useId();
  const title = sessionTitle(session);
  return (
    <li className="session-item" data-current={current ? 'true' : undefined} data-state={state ?? undefined}>
      {renaming ? (
        <RenameField session={session} onDone={() => setRenaming(false)} />
      ) : (
        <>
          {/* Named by its visible title (what a voice user says to click it); when and state describe it. */}
          <button
            type="button"
            className="session-open"
            aria-current={current ? 'true' : undefined}
            aria-describedby={metaId}
            disabled={running && !current}
            onClick={() => {
              showView('chat');
              if (!current) void resumeSession(api, session.id);
            }}
          >
            <span className="visually-hidden">Resume session: </span>
            <Shown className="session-title" text={title} lines="inline" />
          </button>
          <span className="session-meta" id={metaId}>
            <time dateTime={session.updatedAt}>
              <Shown text={when(session.updatedAt)} lines="inline" />
            </time>
            {state ? <span className={`session-state session-state-${state}`}>{STATE_WORDS[state]}</span> : null}
          </span>
        </>
      )}
      <span className="session-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={shownText(`Rename session: ${title}`)}
          title="Rename"
          onClick={() => setRenaming(true)}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className="icon-button danger"
          aria-label={shownText(`Delete session: ${title}`)}
          title="Delete (can be undone)"
          disabled={current && running}
          onClick={() => void deleteSession(api, session)}
        >
          <TrashIcon />
        </button>
      </span>
    </li>
  );
}

/** New session: a button with words, or (a collapsed sidebar) an icon named by the same words. */
function NewSessionButton({ compact }: { compact: boolean }) {
  const api = useApi();
  const running = useChat((s) => s.running);
  return (
    <button
      type="button"
      className={compact ? 'sidebar-link' : 'secondary'}
      disabled={running}
      title={compact ? 'New session' : undefined}
      onClick={() => {
        showView('chat');
        void startNewSession(api);
      }}
    >
      {compact ? <SidebarIcon name="new" /> : null}
      <span className="sidebar-label">New session</span>
    </button>
  );
}

/**
 * The open project's sessions in the sidebar: new, resume, rename, delete (with Undo); the open one marked.
 * `compact` (a collapsed sidebar): New session alone, as an icon named by its words.
 */
export function SessionList({ compact = false }: { compact?: boolean }) {
  const api = useApi();
  const connected = useConnection().status === 'open';
  const project = useShell((s) => s.info?.project ?? null);
  const { sessions, error, deleted } = useSessionList();
  const open = useChat((s) => s.sessionId);
  const running = useChat((s) => s.running);
  const waiting = useChat((s) => s.approvals.length > 0);

  useEffect(() => {
    if (connected && project) void refreshSessions(api);
    if (!project) useSessionList.setState({ sessions: [] });
  }, [api, connected, project]);
  useApiEvent((event) => {
    if (event.type === 'runFinished' || event.type === 'projectChanged') void refreshSessions(api);
  });
  // A new session appears in the list as soon as its first message is sent.
  useEffect(() => {
    if (open && connected && !sessions.some((s) => s.id === open)) void refreshSessions(api);
  }, [api, connected, open, sessions]);

  if (!project) return null;
  if (compact)
    return (
      <div className="session-list">
        <NewSessionButton compact />
      </div>
    );
  return (
    <section className="session-list" aria-labelledby="sessions-heading">
      <div className="sidebar-row">
        <h2 id="sessions-heading" className="sidebar-heading">
          Sessions
        </h2>
        <NewSessionButton compact={false} />
      </div>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {deleted ? (
        <p className="session-undo" role="status">
          <Shown text={`Deleted “${deleted.title}”.`} lines="inline" />{' '}
          <button type="button" className="link" onClick={() => void undoDelete(api)}>
            Undo
          </button>{' '}
          <button type="button" className="link" aria-label="Dismiss" onClick={dismissUndo}>
            ✕
          </button>
        </p>
      ) : null}
      {sessions.length === 0 ? (
        <p className="muted sidebar-note">No sessions yet: your first message starts one.</p>
      ) : (
        <ul className="sessions" aria-label="Sessions of this project">
          {sessions.map((s) => (
            <SessionRow key={s.id} session={s} current={s.id === open} state={stateOf(s, open, running, waiting)} />
          ))}
        </ul>
      )}
    </section>
  );
}
