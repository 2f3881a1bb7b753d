import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { Decision } from '../../../shared/permission';
import type { ToolName } from '../../../shared/tools';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { SIMULATED_TOOLS, simulatedInput } from './rules-api';
import { Shown, shownText } from '../display/Shown';

/** "Test a call": asks the engine what it would decide, exactly as `gatehouse permissions check` does. */
export function CallSimulator() {
  const api = useApi();
  const [tool, setTool] = useState<ToolName>('run_command');
  const [text, setText] = useState('');
  const [result, setResult] = useState<Decision | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = { tool: useId(), text: useId(), title: useId() };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    api.testCall({ tool, input: simulatedInput(tool, text) }).then(setResult, (err: unknown) => {
      setResult(null);
      setError(errorMessage(err));
    });
  };

  return (
    <section className="panel rules-simulator" aria-labelledby={ids.title}>
      <h3 id={ids.title}>Test a call</h3>
      <form onSubmit={submit} className="rules-add">
        <div className="rules-field">
          <label htmlFor={ids.tool}>Tool</label>
          <select id={ids.tool} value={tool} onChange={(e) => setTool(e.target.value as ToolName)}>
            {SIMULATED_TOOLS.map((t) => (
              <option key={t.tool} value={t.tool}>
                {shownText(t.label)}
              </option>
            ))}
          </select>
        </div>
        <div className="rules-field">
          <label htmlFor={ids.text}>Command or path</label>
          <input
            id={ids.text}
            type="text"
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <button type="submit" disabled={!text.trim()}>
          Test
        </button>
      </form>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {result ? (
        <dl className="rules-decision" data-testid="simulator-result" aria-live="polite">
          <dt>Decision</dt>
          <dd>
            <Shown
              className={`rules-badge rules-badge-${result.decision}`}
              data-testid="simulator-decision"
              text={result.decision}
              lines="inline"
            />
          </dd>
          <dt>Source</dt>
          <dd>
            <Shown data-testid="simulator-source" text={result.source} lines="inline" />
          </dd>
          <dt>Matched rule</dt>
          <dd>
            <Shown
              data-testid="simulator-rule"
              text={result.rule ?? '—'}
              strict={result.rule !== null}
              lines="inline"
            />
          </dd>
          <dt>Reason</dt>
          <dd>
            <Shown data-testid="simulator-reason" text={result.reason} />
          </dd>
        </dl>
      ) : null}
    </section>
  );
}
