import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { EditableScopeSchema } from '../../../shared/rules-contract';
import type { EditableScope, RulesList } from '../../../shared/rules-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { ChoiceField, TextField } from './RuleFields';
import { Shown, shownText } from '../display/Shown';

function isEditable(scope: string): scope is EditableScope {
  return scope === 'user' || scope === 'project' || scope === 'local';
}

/** `permissions.additionalDirectories` of every settings file: listed with their file, added and removed per scope. */
export function AdditionalDirectories({ list, onChanged }: { list: RulesList; onChanged(): void }) {
  const api = useApi();
  const [dir, setDir] = useState('');
  const [scope, setScope] = useState<EditableScope>('local');
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const titleId = useId();

  const report = (p: Promise<string>) =>
    p.then(
      (text) => {
        setStatus({ text, error: false });
        onChanged();
      },
      (err: unknown) => setStatus({ text: errorMessage(err), error: true }),
    );

  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!dir.trim()) return;
    void report(
      api.addDirectory({ scope, dir: dir.trim() }).then((r) => {
        setDir('');
        return r.changed ? `Added ${r.resolved} to ${r.file}` : `${dir.trim()} is already in ${r.file}`;
      }),
    );
  };

  return (
    <section className="rules-group" aria-labelledby={titleId}>
      <h3 id={titleId}>Additional directories</h3>
      <p className="muted">
        File tools may also reach these folders (an untrusted project&apos;s own files cannot add any).
      </p>
      {list.additionalDirectories.length === 0 ? <p className="muted">None.</p> : null}
      <ul className="rules-list" aria-label="Additional directories">
        {list.additionalDirectories.map((d) => (
          <li key={`${d.dir}|${d.file}`} className="rules-row">
            <Shown text={d.dir} strict lines="inline" as="code" />
            <Shown className="muted" text={d.source} lines="inline" />
            <span className="rules-file muted" title={shownText(d.file, { strict: true })}>
              <Shown text={d.file} strict lines="inline" />
            </span>
            {isEditable(d.source) ? (
              <button
                type="button"
                className="rules-remove"
                aria-label={shownText(`Remove directory ${d.dir} from ${d.source}`, { strict: true })}
                onClick={() => {
                  const source = d.source;
                  if (isEditable(source))
                    void report(
                      api.removeDirectory({ scope: source, dir: d.dir }).then((r) => `Removed ${d.dir} from ${r.file}`),
                    );
                }}
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <form className="rules-add" onSubmit={add} aria-label="Add a directory">
        <TextField label="Directory" value={dir} placeholder="../shared-lib or an absolute path" onChange={setDir} />
        <ChoiceField label="Directory scope" value={scope} choices={EditableScopeSchema} onChange={setScope} />
        <button type="submit" disabled={!dir.trim()}>
          Add directory
        </button>
      </form>
      {status ? (
        <p
          className={status.error ? 'error' : 'muted'}
          role={status.error ? 'alert' : 'status'}
          data-testid="directory-status"
        >
          <Shown text={status.text} />
        </p>
      ) : null}
    </section>
  );
}
