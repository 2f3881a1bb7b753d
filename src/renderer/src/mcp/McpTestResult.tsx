import type { McpTestView } from '../../../shared/mcp-view-contract';
import { Shown } from '../display/Shown';

/** What a test of one server found: connected or not, its tools with their category, what was left out, errors. */
export function McpTestResult({ result }: { result: McpTestView }) {
  const ok = result.status.state === 'ready';
  const skipped = new Set(result.status.skipped.map((s) => s.reason));
  const errors = result.status.errors.filter((e) => !skipped.has(e));
  return (
    <section className="mcp-test" aria-labelledby="mcp-test-title" data-testid="mcp-test">
      <h3 id="mcp-test-title">
        <Shown text={`Test of ${result.name}: ${ok ? 'connected' : 'did not start'}`} lines="inline" />
      </h3>
      {result.tools.length ? (
        <ul className="mcp-tools" aria-label={`Tools of ${result.name}`}>
          {result.tools.map((t) => (
            <li key={t.name} data-testid="mcp-tool" data-category={t.category}>
              {t.category === 'read' ? (
                <span className="badge badge-ok">read</span>
              ) : (
                <span className="badge badge-muted">{t.category === 'write' ? 'write' : 'exec'}</span>
              )}{' '}
              <Shown text={t.name} strict lines="inline" as="code" />
            </li>
          ))}
        </ul>
      ) : ok ? (
        <p className="muted">It lists no tools.</p>
      ) : null}
      <p className="muted">
        A tool is read only when a server of your own settings marks it so; every other MCP tool runs commands (exec):
        the default mode asks before each call.
      </p>
      {result.status.skipped.map((s) => (
        <p key={s.reason} className="muted">
          <Shown text={s.reason} />
        </p>
      ))}
      {errors.map((e) => (
        <p key={e} className="error">
          <Shown text={e} />
        </p>
      ))}
    </section>
  );
}
