import type { ReactNode } from 'react';
import type { TrustExtensions, TrustPreview } from '../../../shared/trust-contract';
import { Shown } from '../display/Shown';
import type { MarkedText } from '../display/MarkWarning';
import { EXTENSION_KEYS, EXTENSION_LABELS, extensionContents, summary, type PreviewPart } from './extension-contents';

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
    ...(preview.mcpServers ?? []).flatMap((m) => [
      { text: m.name, strict: true },
      { text: m.shown, strict: true },
      { text: m.file, strict: true },
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
      <h5>
        <Shown text={heading} lines="inline" />
      </h5>
      <ul>{children}</ul>
    </section>
  );
}

/** What one trust switch would load, under the switch's name and the same count the switch shows. */
function ExtensionGroup({
  extension,
  parts,
  children,
}: {
  extension: keyof TrustExtensions;
  parts: readonly PreviewPart[];
  children: ReactNode;
}) {
  if (parts.length === 0) return null;
  return (
    <section
      className="trust-preview-group"
      aria-label={`${EXTENSION_LABELS[extension]} it would load`}
      data-testid={`trust-preview-${extension}`}
    >
      <h4>
        <Shown text={`${EXTENSION_LABELS[extension]}: ${summary(parts)}`} lines="inline" />
      </h4>
      {children}
    </section>
  );
}

/** A part's heading: its count as the switch counts it, and what it does. */
function heading(parts: readonly PreviewPart[], kind: PreviewPart['kind'], what = ''): string {
  const part = parts.find((p) => p.kind === kind);
  return part ? `${part.label}${what ? ` (${what})` : ''}` : '';
}

/**
 * What the project would load if trusted, grouped by the trust switch that loads it (Rules, Hooks, Instructions, MCP
 * servers), counted as the switches count it, so the person knows what they are agreeing to. Rules, hook commands,
 * server command lines and paths are shown exactly (hidden characters as markers, a hook's lines numbered).
 */
export function TrustPreviewList({ preview }: { preview: TrustPreview }) {
  const contents = extensionContents(preview);
  const nothing = EXTENSION_KEYS.every((k) => contents[k].length === 0);
  return (
    <div className="trust-preview">
      <h3>If you trust it, this project would load</h3>
      {nothing ? (
        <p className="muted">No allow-rules, hooks, instructions, skills, sub-agents or MCP servers.</p>
      ) : null}
      <ExtensionGroup extension="rules" parts={contents.rules}>
        {preview.allowRules.length ? (
          <Section label="Allow-rules" heading={heading(contents.rules, 'allowRules')}>
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
        {preview.additionalDirectories.length ? (
          <Section label="Additional directories" heading={heading(contents.rules, 'additionalDirectories')}>
            {preview.additionalDirectories.map((d, i) => (
              <li key={`${d.file}:${i}`}>
                <Shown text={d.directory} strict lines="inline" as="code" />
                <From file={d.file} />
              </li>
            ))}
          </Section>
        ) : null}
        {preview.allowedDomains.length ? (
          <Section label="Network domains" heading={heading(contents.rules, 'allowedDomains', 'allowed')}>
            {preview.allowedDomains.map((d, i) => (
              <li key={`${d.file}:${i}`}>
                <Shown text={d.domain} strict lines="inline" as="code" />
                <From file={d.file} />
              </li>
            ))}
          </Section>
        ) : null}
      </ExtensionGroup>
      <ExtensionGroup extension="hooks" parts={contents.hooks}>
        <Section label="Hooks" heading={heading(contents.hooks, 'hooks', 'commands that would run')}>
          {preview.hooks.map((h, i) => (
            <li key={`${h.file}:${i}`} className="trust-hook">
              <Shown text={h.event} strict lines="inline" />
              {': '}
              <Shown text={h.command} strict lines="numbered" as="code" data-testid="trust-hook-command" />
              <From file={h.file} />
            </li>
          ))}
        </Section>
      </ExtensionGroup>
      <ExtensionGroup extension="instructions" parts={contents.instructions}>
        {preview.instructionFiles.length ? (
          <Section
            label="Instruction files"
            heading={heading(contents.instructions, 'instructionFiles', "added to the model's prompt")}
          >
            {preview.instructionFiles.map((f) => (
              <li key={f.path} data-testid="trust-instruction-file">
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
                  ? heading(contents.instructions, 'skills', 'the model may load them; each narrows the tools')
                  : heading(contents.instructions, 'agents', 'the model may start them; every call is checked')
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
      </ExtensionGroup>
      <ExtensionGroup extension="mcp" parts={contents.mcp}>
        <Section
          label="MCP servers"
          heading={heading(contents.mcp, 'mcpServers', 'each starts only after you approve it')}
        >
          {(preview.mcpServers ?? []).map((m, i) => (
            <li key={`${m.file}:${m.name}:${i}`} data-testid="trust-mcp-server">
              <Shown text={m.name} strict lines="inline" as="code" />
              {': '}
              <Shown text={m.shown} strict as="code" />
              <From file={m.file} />
            </li>
          ))}
        </Section>
      </ExtensionGroup>
      {preview.keyProblems?.length ? (
        <section aria-label="Unknown settings keys">
          <h4>Unknown keys in the settings files</h4>
          <ul>
            {preview.keyProblems.map((k, i) => (
              <li key={`${k.file}:${i}`}>
                <Shown text={`${k.file}${k.line !== null ? `:${k.line}` : ''}`} strict lines="inline" as="code" />
                {': '}
                <Shown text={k.reason} />
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
                <Shown text={e.file} strict lines="inline" as="code" />
                {': '}
                <Shown text={e.reason} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
