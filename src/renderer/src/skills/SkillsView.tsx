import type { DefinitionView } from '../../../shared/skills-view-contract';
import { useApiResource } from '../api/use-api-resource';
import { showView } from '../app/view-store';
import { Shown, shownText } from '../display/Shown';

import './skills.css';

const SOURCE_LABELS: Record<DefinitionView['source'], string> = { user: 'Yours', project: 'This project' };

/** "read_file, write_file", or what an absent list means for that kind. */
function toolsText(d: DefinitionView, kind: 'skill' | 'agent'): string {
  if (d.tools === null) return kind === 'skill' ? 'all (not narrowed)' : 'all of the run that starts it';
  return d.tools.length ? d.tools.join(', ') : 'none';
}

function DefinitionsTable({ kind, items }: { kind: 'skill' | 'agent'; items: readonly DefinitionView[] }) {
  return (
    <div className="skills-table-wrap">
      <table className="skills-table">
        <caption className="visually-hidden">{kind === 'skill' ? 'Skills' : 'Sub-agents'}</caption>
        <thead>
          <tr>
            <th scope="col">{kind === 'skill' ? 'Skill' : 'Sub-agent'}</th>
            <th scope="col">From</th>
            <th scope="col">{kind === 'skill' ? 'Allowed tools' : 'Tools'}</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {items.map((d) => (
            <tr
              key={d.path}
              data-testid={`${kind}-row`}
              data-name={d.name}
              data-source={d.source}
              data-loaded={d.loaded}
            >
              <td>
                <Shown text={d.name} strict lines="inline" as="code" />
                <Shown className="skills-detail muted" text={d.description} />
              </td>
              <td className="skills-path">
                <Shown text={SOURCE_LABELS[d.source]} lines="inline" />
                <Shown className="skills-detail muted" text={d.path} strict data-testid="definition-path" />
              </td>
              <td className="skills-tools">
                <Shown text={toolsText(d, kind)} strict data-testid="definition-tools" />
                {kind === 'agent' ? (
                  <Shown
                    className="skills-detail muted"
                    text={`agent mode: ${d.agentMode ?? 'chat'}${d.model ? `; model: ${d.model}` : ''}`}
                  />
                ) : null}
                {d.warnings.map((w) => (
                  <Shown key={w} className="skills-detail rule-warning" text={`⚠ ${w}`} />
                ))}
              </td>
              <td>
                {d.loaded ? (
                  <span className="badge badge-ok" data-testid="definition-state">
                    loaded
                  </span>
                ) : (
                  <>
                    <span className="badge badge-muted" data-testid="definition-state">
                      not loaded
                    </span>
                    {d.notLoadedReason ? <Shown className="skills-detail muted" text={d.notLoadedReason} /> : null}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Skills & sub-agents page: every skill and sub-agent of yours and of the open project, read as a run reads them
 * (what `gatehouse skills list` shows): where each comes from, the tools it allows, and whether a run here loads it.
 * A project's load only while it is trusted with its instructions; they are listed anyway, marked, with why.
 */
export function SkillsView() {
  const {
    data: list,
    error,
    reload: load,
  } = useApiResource((api) => api.listSkills({}), {
    failure: 'Could not read the skills and sub-agents',
    reloadOn: ['projectChanged', 'trustChanged', 'settingsChanged'],
  });

  return (
    <section className="panel skills-view" aria-labelledby="skills-title">
      <div className="panel-head">
        <h2 id="skills-title">Skills &amp; sub-agents</h2>
        <span className="panel-head-actions">
          <button type="button" className="secondary" onClick={load}>
            Refresh
          </button>
        </span>
      </div>
      <p className="panel-note">
        A skill (a SKILL.md) is instructions the model may load; while it is active, its allowed tools narrow what the
        run may call. A sub-agent (an .md file) is a helper the model may start with its own prompt and tools. Every
        call either makes still goes through your rules.
      </p>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {list?.projectNote ? (
        <p className="hooks-trust-note" role="note" data-testid="skills-trust-note">
          <Shown text={list.projectNote} />{' '}
          <button type="button" className="link" onClick={() => showView('trust')}>
            Open Trusted folders
          </button>
        </p>
      ) : null}
      {list ? (
        <>
          <section className="skills-section" aria-labelledby="skills-skills-title">
            <h3 id="skills-skills-title">Skills</h3>
            {list.skills.length ? (
              <DefinitionsTable kind="skill" items={list.skills} />
            ) : (
              <p className="muted">
                <Shown
                  text={`No skills. Yours go in ${list.folders.skills}/<name>/SKILL.md; a project's in .gatehouse/skills or .claude/skills.`}
                  strict
                />
              </p>
            )}
          </section>
          <section className="skills-section" aria-labelledby="skills-agents-title">
            <h3 id="skills-agents-title">Sub-agents</h3>
            {list.agents.length ? (
              <DefinitionsTable kind="agent" items={list.agents} />
            ) : (
              <p className="muted">
                <Shown
                  text={`No sub-agents. Yours go in ${list.folders.agents}/<name>.md; a project's in .gatehouse/agents or .claude/agents.`}
                  strict
                />
              </p>
            )}
            <p className="muted" data-testid="background-ask">
              <Shown
                text={`A sub-agent started in the background (nobody watching) ${list.backgroundAsk === 'deny' ? 'is denied every call that would ask you' : 'runs the calls only the permission mode asks about; other asks are denied'} (subagents.backgroundAsk: ${list.backgroundAsk}).`}
              />
            </p>
            {list.backgroundAskProblem ? (
              <p className="error">
                <Shown text={list.backgroundAskProblem} />
              </p>
            ) : null}
          </section>
          {list.problems.length ? (
            <section className="skills-section" aria-labelledby="skills-problems-title">
              <h3 id="skills-problems-title">Files that are not offered</h3>
              <ul>
                {list.problems.map((p) => (
                  <li key={`${p.path}|${p.reason}`} title={shownText(p.path, { strict: true })}>
                    <Shown text={p.path} strict lines="inline" as="code" />
                    {': '}
                    <Shown text={p.reason} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : !error ? (
        <p className="muted">Reading the skills and sub-agents…</p>
      ) : null}
    </section>
  );
}
