import { useId } from 'react';
import type { TrustExtensions, TrustPreview } from '../../../shared/trust-contract';
import { Shown } from '../display/Shown';
import { EXTENSION_KEYS, EXTENSION_LABELS, extensionContents, summary } from './extension-contents';

const EXTENSION_HELP: Record<keyof TrustExtensions, string> = {
  rules: 'its allow rules, mode, extra folders and network domains (its deny and ask rules always apply)',
  hooks: 'its hook commands (also Claude Code’s), run inside the OS sandbox',
  instructions:
    "its instruction files (AGENTS.md, CLAUDE.md, .gatehouse/instructions.md), added to the model's prompt, and its skills and sub-agents",
  mcp: 'its MCP servers (.mcp.json, mcpServers), each started only after you approve it once',
};

/** What the project has for one switch, counted as the preview list counts it: "1 instruction file and 2 skills here". */
function presentCount(key: keyof TrustExtensions, preview: TrustPreview): string {
  const parts = extensionContents(preview)[key];
  return parts.length === 0 ? 'none in this project' : `${summary(parts)} in this project`;
}

/** One switch; in a table row its name says the folder ("Hooks for /home/me/app"). */
function ExtensionBox({
  id,
  extension,
  folder,
  checked,
  onChange,
}: {
  id: string;
  extension: keyof TrustExtensions;
  folder: string | null;
  checked: boolean;
  onChange(change: Partial<TrustExtensions>): void;
}) {
  return (
    <label htmlFor={id} title={folder ? EXTENSION_HELP[extension] : undefined}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-label={folder ? `${EXTENSION_LABELS[extension]} for ${folder}` : undefined}
        aria-describedby={folder ? undefined : `${id}-help`}
        onChange={(e) => onChange({ [extension]: e.target.checked })}
      />{' '}
      {EXTENSION_LABELS[extension]}
    </label>
  );
}

/**
 * Four switches (checkboxes in a fieldset): which of the project's extensions a trust decision enables. In the
 * trust dialog they shape the answer; on the Trusted folders page they change a stored decision. `folder` names
 * the row for screen readers ("Hooks for /home/me/app").
 */
export function ExtensionSwitches({
  value,
  onChange,
  preview = null,
  folder = null,
  disabled = false,
  legend,
}: {
  value: TrustExtensions;
  onChange(change: Partial<TrustExtensions>): void;
  preview?: TrustPreview | null;
  folder?: string | null;
  disabled?: boolean;
  legend: string;
}) {
  const id = useId();
  return (
    <fieldset className={`trust-extensions${folder ? ' trust-extensions-compact' : ''}`} disabled={disabled}>
      <legend className={folder ? 'visually-hidden' : undefined}>
        <Shown text={legend} lines="inline" />
      </legend>
      {EXTENSION_KEYS.map((key) =>
        folder ? (
          <span key={key}>
            <ExtensionBox
              id={`${id}-${key}`}
              extension={key}
              folder={folder}
              checked={value[key]}
              onChange={onChange}
            />
          </span>
        ) : (
          <div key={key} className="trust-extension" data-testid={`trust-extension-${key}`}>
            <ExtensionBox id={`${id}-${key}`} extension={key} folder={null} checked={value[key]} onChange={onChange} />
            <Shown
              id={`${id}-${key}-help`}
              className="muted trust-extension-help"
              text={`: ${EXTENSION_HELP[key]}${preview ? ` (${presentCount(key, preview)})` : ''}`}
              lines="inline"
            />
          </div>
        ),
      )}
    </fieldset>
  );
}
