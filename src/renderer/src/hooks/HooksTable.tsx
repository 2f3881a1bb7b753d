import type { HookListEntry } from '../../../shared/hooks-contract';
import { Shown, shownText } from '../display/Shown';

function fileName(file: string): string {
  return file.split(/[\\/]/).slice(-2).join('/');
}

export interface HooksTableProps {
  hooks: readonly HookListEntry[];
  caption: string;
  /** Edit and Delete of an editable hook (Gatehouse's own files); read-only rows say why. */
  onEdit?(hook: HookListEntry): void;
  onDelete?(hook: HookListEntry): void;
}

/** What a row's Edit and Delete buttons are named (for screen readers: which hook). */
function hookName(h: HookListEntry): string {
  return `${h.event} hook ${h.command ?? h.type}`;
}

/**
 * One scope's hooks: event, matcher, command, where it is written, whether it runs (and why not), and Edit and
 * Delete where the file is Gatehouse's own (otherwise why it is read only).
 */
export function HooksTable({ hooks, caption, onEdit, onDelete }: HooksTableProps) {
  return (
    <div className="hooks-table-wrap reflow">
      <table className="hooks-table reflow-table">
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
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {hooks.map((h, i) => (
            <tr key={`${h.file}|${i}`} data-testid="hook-row" data-active={h.active}>
              <td data-label="Event">
                <Shown text={h.event} strict lines="inline" as="code" />
              </td>
              <td data-label="Matcher">
                {h.matcher === '' ? (
                  <span className="muted">every tool</span>
                ) : (
                  <Shown text={h.matcher} strict lines="inline" as="code" />
                )}
              </td>
              <td className="hooks-command reflow-long" data-label="Command">
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
              <td data-label="File" title={shownText(h.file, { strict: true })}>
                <Shown text={fileName(h.file)} strict lines="inline" as="code" />
                {h.format === 'claude' ? <span className="muted"> (Claude Code, read only)</span> : null}
              </td>
              <td data-label="State">
                {h.active ? (
                  <span className="badge badge-ok">active</span>
                ) : (
                  <>
                    <span className="badge badge-muted">inactive</span>{' '}
                    <Shown className="muted" text={h.inactiveReason ?? ''} />
                  </>
                )}
              </td>
              <td className="hooks-actions" data-label="Actions">
                {h.editable ? (
                  <>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={shownText(`Edit ${hookName(h)}`, { strict: true })}
                      onClick={() => onEdit?.(h)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={shownText(`Delete ${hookName(h)}`, { strict: true })}
                      onClick={() => onDelete?.(h)}
                    >
                      Delete
                    </button>
                  </>
                ) : (
                  <Shown className="muted" text={`read only: ${h.readOnlyReason ?? ''}`} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
