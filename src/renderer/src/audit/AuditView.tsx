import { useCallback, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import type { AuditRecord, CheckpointAudit } from '../../../shared/audit-contract';
import { SANDBOX_KIND_LABELS } from '../../../shared/permission';
import { callTarget } from '../../../shared/tools';
import { errorMessage } from '../api/errors';
import { useApi, useApiEvent } from '../api/context';
import { useShell } from '../app/store';
import { Shown, shownText } from '../display/Shown';
import { canMakeRule, makeRuleFrom } from '../rules/builder/builder-store';
import { answeredBy, filterAudit, NO_FILTER } from './audit-filter';
import type { AuditFilter } from './audit-filter';
import { CheckpointHistory } from './CheckpointHistory';

import './audit.css';

const PAGE = 200;

function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Saves text as a file through the browser's (or Electron's) download. */
function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Filters({ filter, onChange }: { filter: AuditFilter; onChange(f: AuditFilter): void }) {
  const ids = { decision: useId(), who: useId(), query: useId() };
  return (
    <div className="audit-filters" role="search">
      <label htmlFor={ids.query}>Search</label>
      <input
        id={ids.query}
        type="search"
        value={filter.query}
        placeholder="tool, path, command, rule, reason"
        onChange={(e) => onChange({ ...filter, query: e.target.value })}
        spellCheck={false}
      />
      <label htmlFor={ids.decision}>Decision</label>
      <select
        id={ids.decision}
        value={filter.decision}
        onChange={(e) => onChange({ ...filter, decision: e.target.value as AuditFilter['decision'] })}
      >
        <option value="all">All</option>
        <option value="allow">Allowed</option>
        <option value="deny">Denied</option>
        <option value="ask">Asked</option>
      </select>
      <label htmlFor={ids.who}>Answered by</label>
      <select
        id={ids.who}
        value={filter.who}
        onChange={(e) => onChange({ ...filter, who: e.target.value as AuditFilter['who'] })}
      >
        <option value="all">Anyone</option>
        <option value="you">You</option>
        <option value="engine">Gatehouse (rules, checks, modes)</option>
      </select>
    </div>
  );
}

function AuditRow({ r }: { r: AuditRecord }) {
  return (
    <tr data-decision={r.decision}>
      <td data-label="Time">
        <time dateTime={r.time}>
          <Shown text={formatTime(r.time)} lines="inline" />
        </time>
      </td>
      <td data-label="Tool">
        <Shown text={r.tool} strict lines="inline" as="code" />
        {r.agent ? (
          <Shown className="muted audit-agent" text={` by sub-agent ${r.agent}`} strict lines="inline" />
        ) : null}
      </td>
      <td className="audit-target reflow-long" data-label="Target">
        <Shown text={callTarget(r.input)} strict lines="inline" as="code" />
      </td>
      <td data-label="Decision">
        <Shown className={`audit-decision audit-decision-${r.decision}`} text={r.decision} lines="inline" />
        {r.sandbox ? (
          <Shown
            className="muted audit-sandbox"
            text={` · ${SANDBOX_KIND_LABELS[r.sandbox]}`}
            lines="inline"
            data-testid="audit-sandbox"
          />
        ) : null}
      </td>
      <td data-label="Source">
        <Shown text={r.source} lines="inline" />
      </td>
      <td data-label="Rule">
        {r.rule ? <Shown text={r.rule} strict lines="inline" as="code" /> : <span className="muted">—</span>}
      </td>
      <td className="audit-reason reflow-long" data-label="Reason">
        <Shown text={r.reason} />
      </td>
      <td data-label="Answered by">
        <Shown text={answeredBy(r)} lines="inline" />
      </td>
      <td>
        {canMakeRule(r.tool) ? (
          <button
            type="button"
            className="secondary audit-make-rule"
            aria-label={shownText(`Make a rule from ${r.tool} ${callTarget(r.input)}`, { strict: true })}
            onClick={() => makeRuleFrom(r.tool, r.input)}
          >
            Make a rule
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** The open project's decisions from the audit log: filters, search, and an export with redaction. */
export function AuditView() {
  const api = useApi();
  const project = useShell((s) => s.info?.project ?? null);
  const [records, setRecords] = useState<AuditRecord[] | null>(null);
  const [checkpoints, setCheckpoints] = useState<CheckpointAudit[]>([]);
  const [meta, setMeta] = useState<{ file: string; truncated: boolean; skipped: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const [limit, setLimit] = useState(PAGE);
  const deferred = useDeferredValue(filter);
  const shown = useMemo(() => (records ? filterAudit(records, deferred) : []), [records, deferred]);

  const load = useCallback(() => {
    api.listAudit({}).then(
      (r) => {
        setRecords(r.entries);
        setCheckpoints(r.checkpoints);
        setMeta({ file: r.file, truncated: r.truncated, skipped: r.skipped });
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [api]);
  useEffect(() => {
    if (project) load();
  }, [load, project]);
  useApiEvent((event) => {
    if (event.type === 'runFinished' || event.type === 'projectChanged') load();
  });

  const exportShown = () => {
    api.exportAudit({ entries: shown.slice(0, 10_000) }).then(
      (r) => {
        download(r.fileName, r.text);
        setStatus(
          `Exported ${shown.length} decision${shown.length === 1 ? '' : 's'} as ${r.fileName} (secrets redacted, your home folder as ~).`,
        );
      },
      (err: unknown) => setError(`Export failed: ${errorMessage(err)}`),
    );
  };

  return (
    <section className="panel audit-view" aria-labelledby="audit-title">
      <div className="panel-head">
        <h2 id="audit-title">Audit log</h2>
        <span className="panel-head-actions">
          <button type="button" className="secondary" onClick={load}>
            Refresh
          </button>
          <button type="button" className="secondary" onClick={exportShown} disabled={shown.length === 0}>
            Export shown…
          </button>
        </span>
      </div>
      {!project ? <p className="muted">Open a project to see the decisions made in it.</p> : null}
      {meta ? (
        <p className="panel-note">
          {'Every decision in this project, newest first, from '}
          <Shown text={meta.file} strict lines="inline" as="code" />
          <Shown
            text={`${meta.truncated ? ' (the oldest are not shown)' : ''}${meta.skipped ? ` · ${meta.skipped} unreadable line${meta.skipped === 1 ? '' : 's'} skipped` : ''}.`}
          />
        </p>
      ) : null}
      <CheckpointHistory entries={checkpoints} formatTime={formatTime} />
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {status ? (
        <p className="muted" role="status">
          <Shown text={status} />
        </p>
      ) : null}
      <Filters
        filter={filter}
        onChange={(f) => {
          setFilter(f);
          setLimit(PAGE);
        }}
      />
      {records ? (
        <p className="muted" aria-live="polite" data-testid="audit-count">
          <Shown
            text={
              records.length === 0
                ? 'No decisions yet: they appear here as the agent calls tools.'
                : `${shown.length} of ${records.length} decisions`
            }
          />
        </p>
      ) : null}
      {shown.length > 0 ? (
        <div className="audit-table-wrap reflow">
          <table className="audit-table reflow-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Tool</th>
                <th scope="col">Target</th>
                <th scope="col">Decision</th>
                <th scope="col">Source</th>
                <th scope="col">Rule</th>
                <th scope="col">Reason</th>
                <th scope="col">Answered by</th>
                <th scope="col">Rule builder</th>
              </tr>
            </thead>
            <tbody>
              {shown.slice(0, limit).map((r, i) => (
                <AuditRow key={`${r.time}|${i}`} r={r} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {shown.length > limit ? (
        <button type="button" className="secondary" onClick={() => setLimit((n) => n + PAGE)}>
          Show {Math.min(PAGE, shown.length - limit)} more ({shown.length - limit} not shown)
        </button>
      ) : null}
    </section>
  );
}
