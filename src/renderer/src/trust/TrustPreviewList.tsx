import type { ReactNode } from 'react';
import type { TrustPreview } from '../../../shared/trust-contract';
import { Shown } from '../display';
import type { MarkedText } from '../display';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Every text of a preview, for the trust dialog's hidden-character warning. */
export function previewTexts(preview: TrustPreview): MarkedText[] {
  return [
    ...preview.allowRules.flatMap((r) => [
      { text: r.rule, strict: true },
      { text: r.file, strict: true },
    ]),
    ...preview.hooks.flatMap((h) => [
      { text: h.event, strict: true },
      { text: h.command, strict: true },
      { text: h.file, strict: true },
    ]),
    ...preview.instructionFiles.map((f) => ({ text: f.path, strict: true })),
    ...[...(preview.skills ?? []), ...(preview.agents ?? [])].flatMap((d) => [
      { text: d.name, strict: true },
      { text: d.description },
      { text: d.file, strict: true },
    ]),
    ...preview.additionalDirectories.flatMap((d) => [
      { text: d.directory, strict: true },
      { text: d.file, strict: true },
    ]),
    ...preview.allowedDomains.flatMap((d) => [
      { text: d.domain, strict: true },
      { text: d.file, strict: true },
    ]),
    ...preview.errors.flatMap((e) => [{ text: e.file, strict: true }, { text: e.reason }]),
    ...(preview.keyProblems ?? []).flatMap((k) => [{ text: k.file, strict: true }, { text: k.reason }]),
  ];
}

/** "from <file>": the file a line comes from, isolated so nothing in the line can reorder it. */
function From({ file }: { file: string }) {
  return (
    <span className="muted">
      {' from '}
      <Shown text={file} strict lines="inline" />
    </span>
  );
}

function Section({ label, heading, children }: { label: string; heading: string; children: ReactNode }) {
  return (
    <section aria-label={label}>
      <h4>
        <Shown text={heading} lines="inline" />
      </h4>
      <ul>{children}</ul>
    </section>
  );
}

/**
 * What the project would load if trusted, so the person knows what they are agreeing to. Rules, hook commands and
 * paths are shown exactly (hidden characters as markers, a hook's lines numbered).
 */
export function TrustPreviewList({ preview }: { preview: TrustPreview }) {
  const nothing =
    preview.allowRules.length +
      preview.hooks.length +
      preview.instructionFiles.length +
      (preview.skills?.length ?? 0) +
      (preview.agents?.length ?? 0) +
      preview.allowedDomains.length +
      preview.additionalDirectories.length ===
    0;
  return (
    <div className="trust-preview">
      <h3>If you trust it, this project would load</h3>
      {nothing ? <p className="muted">No allow-rules, hooks or instruction files.</p> : null}
      {preview.allowRules.length ? (
        <Section label="Allow-rules" heading={plural(preview.allowRules.length, 'allow-rule')}>
          {preview.allowRules.map((r, i) => (
            <li key={`${r.file}:${i}`}>
              <Shown text={r.rule} strict lines="inline" as="code" />
              <From file={r.file} />
              {(r.warnings ?? []).map((w) => (
                <span key={w} className="rule-warning" data-testid="trust-rule-warning">
                  <Shown text={`⚠ ${w}`} />
                </span>
              ))}
            </li>
          ))}
        </Section>
      ) : null}
      {preview.hooks.length ? (
        <Section label="Hooks" heading={`${plural(preview.hooks.length, 'hook')} (commands that would run)`}>
          {preview.hooks.map((h, i) => (
            <li key={`${h.file}:${i}`} className="trust-hook">
              <Shown text={h.event} strict lines="inline" />
              {': '}
              <Shown text={h.command} strict lines="numbered" as="code" data-testid="trust-hook-command" />
              <From file={h.file} />
            </li>
          ))}
        </Section>
      ) : null}
      {preview.instructionFiles.length ? (
        <Section
          label="Instruction files"
          heading={`${plural(preview.instructionFiles.length, 'instruction file')} (added to the model's prompt)`}
        >
          {preview.instructionFiles.map((f) => (
            <li key={f.path}>
              <Shown text={f.path} strict lines="inline" as="code" />{' '}
              <Shown className="muted" text={`(${f.bytes} bytes)`} />
            </li>
          ))}
        </Section>
      ) : null}
      {(['skills', 'agents'] as const).map((kind) =>
        preview[kind]?.length ? (
          <Section
            key={kind}
            label={kind === 'skills' ? 'Skills' : 'Sub-agents'}
            heading={
              kind === 'skills'
                ? `${plural(preview.skills!.length, 'skill')} (the model may load them; each narrows the tools)`
                : `${plural(preview.agents!.length, 'sub-agent')} (the model may start them; every call is checked)`
            }
          >
            {preview[kind]!.map((d) => (
              <li key={d.file} data-testid={`trust-${kind}`}>
                <Shown text={d.name} strict lines="inline" as="code" />
                {': '}
                <Shown text={d.description} />
                <From file={d.file} />
                {(d.warnings ?? []).map((w) => (
                  <span key={w} className="rule-warning">
                    <Shown text={`⚠ ${w}`} />
                  </span>
                ))}
              </li>
            ))}
          </Section>
        ) : null,
      )}
      {preview.additionalDirectories.length ? (
        <Section
          label="Additional directories"
          heading={plural(preview.additionalDirectories.length, 'additional directory', 'additional directories')}
        >
          {preview.additionalDirectories.map((d, i) => (
            <li key={`${d.file}:${i}`}>
              <Shown text={d.directory} strict lines="inline" as="code" />
              <From file={d.file} />
            </li>
          ))}
        </Section>
      ) : null}
      {preview.allowedDomains.length ? (
        <Section label="Network domains" heading={plural(preview.allowedDomains.length, 'allowed network domain')}>
          {preview.allowedDomains.map((d, i) => (
            <li key={`${d.file}:${i}`}>
              <Shown text={d.domain} strict lines="inline" as="code" />
              <From file={d.file} />
            </li>
          ))}
        </Section>
      ) : null}
      {preview.keyProblems?.length ? (
        <Section label="Unknown settings keys" heading="Unknown keys in the settings files">
          {preview.keyProblems.map((k, i) => (
            <li key={`${k.file}:${i}`}>
              <Shown text={`${k.file}${k.line !== null ? `:${k.line}` : ''}`} strict lines="inline" as="code" />
              {': '}
              <Shown text={k.reason} />
            </li>
          ))}
        </Section>
      ) : null}
      {preview.errors.length ? (
        <Section label="Problems" heading="Files that could not be read (not loaded)">
          {preview.errors.map((e, i) => (
            <li key={`${e.file}:${i}`}>
              <Shown text={e.file} strict lines="inline" as="code" />
              {': '}
              <Shown text={e.reason} />
            </li>
          ))}
        </Section>
      ) : null}
    </div>
  );
}
