import type { TrustPreview } from '../../../shared/trust-contract';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the project would load if trusted, so the person knows what they are agreeing to. */
export function TrustPreviewList({ preview }: { preview: TrustPreview }) {
  const nothing =
    preview.allowRules.length + preview.hooks.length + preview.instructionFiles.length + preview.allowedDomains.length + preview.additionalDirectories.length === 0;
  return (
    <div className="trust-preview">
      <h3>If you trust it, this project would load</h3>
      {nothing ? <p className="muted">No allow-rules, hooks or instruction files.</p> : null}
      {preview.allowRules.length ? (
        <section aria-label="Allow-rules">
          <h4>{plural(preview.allowRules.length, 'allow-rule')}</h4>
          <ul>
            {preview.allowRules.map((r, i) => (
              <li key={`${r.file}:${i}`}>
                <code>{r.rule}</code> <span className="muted">from {r.file}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.hooks.length ? (
        <section aria-label="Hooks">
          <h4>{plural(preview.hooks.length, 'hook')} (commands that would run)</h4>
          <ul>
            {preview.hooks.map((h, i) => (
              <li key={`${h.file}:${i}`}>
                <span>{h.event}</span>: <code>{h.command}</code> <span className="muted">from {h.file}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.instructionFiles.length ? (
        <section aria-label="Instruction files">
          <h4>{plural(preview.instructionFiles.length, 'instruction file')} (added to the model's prompt)</h4>
          <ul>
            {preview.instructionFiles.map((f) => (
              <li key={f.path}>
                <code>{f.path}</code> <span className="muted">({f.bytes} bytes)</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.additionalDirectories.length ? (
        <section aria-label="Additional directories">
          <h4>{plural(preview.additionalDirectories.length, 'additional directory', 'additional directories')}</h4>
          <ul>
            {preview.additionalDirectories.map((d, i) => (
              <li key={`${d.file}:${i}`}>
                <code>{d.directory}</code> <span className="muted">from {d.file}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.allowedDomains.length ? (
        <section aria-label="Network domains">
          <h4>{plural(preview.allowedDomains.length, 'allowed network domain')}</h4>
          <ul>
            {preview.allowedDomains.map((d, i) => (
              <li key={`${d.file}:${i}`}>
                <code>{d.domain}</code> <span className="muted">from {d.file}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.keyProblems?.length ? (
        <section aria-label="Unknown settings keys">
          <h4>Unknown keys in the settings files</h4>
          <ul>
            {preview.keyProblems.map((k, i) => (
              <li key={`${k.file}:${i}`}>
                <code>
                  {k.file}
                  {k.line !== null ? `:${k.line}` : ''}
                </code>
                : {k.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview.errors.length ? (
        <section aria-label="Problems">
          <h4>Files that could not be read (not loaded)</h4>
          <ul>
            {preview.errors.map((e, i) => (
              <li key={`${e.file}:${i}`}>
                <code>{e.file}</code>: {e.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
