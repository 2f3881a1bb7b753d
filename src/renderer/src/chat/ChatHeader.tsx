import { useShell } from '../app/store';
import { baseName } from '../app/ProjectSwitcher';
import { showView } from '../app/view-store';
import { Shown } from '../display/Shown';
import { useChat } from './chat-store';
import { sessionTitle, useSessionList } from './session-list-store';

/** The chat's title line: the session's name and the project it works in; a missing model key, with the fix. */
export function ChatHeader() {
  const project = useShell((s) => s.info?.project ?? null);
  const sessionId = useChat((s) => s.sessionId);
  const hasModelKey = useChat((s) => s.hasModelKey);
  const skills = useChat((s) => s.activeSkills);
  const session = useSessionList((s) => s.sessions.find((x) => x.id === sessionId) ?? null);
  const title = session ? sessionTitle(session) : 'New session';
  return (
    <header className="chat-header">
      <h2 id="chat-title" className="chat-title">
        <Shown text={title} lines="inline" />
      </h2>
      {project ? <Shown className="chat-project muted" text={`in ${baseName(project)}`} strict lines="inline" /> : null}
      {skills.length ? (
        <Shown
          className="chat-skill badge badge-warn"
          data-testid="active-skill"
          text={`Skill: ${skills.map((k) => k.name).join(' + ')} · tools: ${skills.at(-1)?.allowedTools?.join(', ') ?? 'all'}`}
          lines="inline"
        />
      ) : null}
      {!hasModelKey ? (
        <p className="warn-note chat-key-note">
          No model key: save one in Settings (Ctrl+,), or start Gatehouse with ANTHROPIC_API_KEY set.{' '}
          <button type="button" className="link" onClick={() => showView('settings')}>
            Open Settings
          </button>
        </p>
      ) : null}
    </header>
  );
}
