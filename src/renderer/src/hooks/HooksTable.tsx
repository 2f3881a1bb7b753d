import type { HookListEntry } from '../../../shared/hooks-contract';
import { Shown, shownText } from '../display';

function fileName(file: string): string {
  return file.split(/[\\/]/).slice(-2).join('/');
}

/** One scope's hooks: event, matcher, command, where it is written and whether it runs (and why not). */
export function HooksTable({ hooks, caption }: { hooks: readonly HookListEntry[]; caption: string }) {
  return (
    <div className="hooks-table-wrap">
      <table className="hooks-table">
        <caption className="visually-hidden">
          <Shown text={caption} lines="inline" />
        </caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Matcher</th>
            <th scope="col">Command</th>
            <th scope="col">File</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {hooks.map((h, i) => (
            <tr key={`${h.file}|${i}`} data-testid="hook-row" data-active={h.active}>
              <td>
                <Shown text={h.event} strict lines="inline" as="code" />
              </td>
              <td>
                {h.matcher === '' ? (
                  <span className="muted">every tool</span>
                ) : (
                  <Shown text={h.matcher} strict lines="inline" as="code" />
                )}
              </td>
              <td className="hooks-command">
                {h.command === null ? (
                  <Shown className="muted" text={`(${h.type} hook, not run)`} lines="inline" />
                ) : (
                  <Shown text={h.command} strict as="code" />
                )}
                <Shown
                  className="muted hooks-runs"
                  text={`timeout ${h.timeoutSeconds} s · ${h.sandboxed ? 'runs in the OS sandbox' : 'runs as you'}`}
                />
              </td>
              <td title={shownText(h.file, { strict: true })}>
                <Shown text={fileName(h.file)} strict lines="inline" as="code" />
                {h.format === 'claude' ? <span className="muted"> (Claude Code, read only)</span> : null}
              </td>
              <td>
                {h.active ? (
                  <span className="badge badge-ok">active</span>
                ) : (
                  <>
                    <span className="badge badge-muted">inactive</span>{' '}
                    <Shown className="muted" text={h.inactiveReason ?? ''} />
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
