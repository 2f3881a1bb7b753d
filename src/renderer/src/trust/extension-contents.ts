import type { TrustExtensions, TrustPreview } from '../../../shared/trust-contract';

/** One kind of thing a project would load (its allow-rules, its skills...) and the trust switch that loads it. */
export interface PreviewPart {
  kind:
    | 'allowRules'
    | 'additionalDirectories'
    | 'allowedDomains'
    | 'hooks'
    | 'instructionFiles'
    | 'skills'
    | 'agents'
    | 'mcpServers';
  count: number;
  /** "1 skill", "3 instruction files". */
  label: string;
}

export const EXTENSION_KEYS = [
  'rules',
  'hooks',
  'instructions',
  'mcp',
] as const satisfies readonly (keyof TrustExtensions)[];

export const EXTENSION_LABELS: Record<keyof TrustExtensions, string> = {
  rules: 'Rules',
  hooks: 'Hooks',
  instructions: 'Instructions',
  mcp: 'MCP servers',
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What a preview holds for each trust switch, counted once: the dialog's switches and its list of what the project
 * would load both read this, so "Instructions (3 files)" can never sit beside "1 instruction file" again. Only the
 * kinds the project has are listed.
 */
export function extensionContents(preview: TrustPreview): Record<keyof TrustExtensions, PreviewPart[]> {
  const part = (kind: PreviewPart['kind'], count: number, one: string, many?: string): PreviewPart[] =>
    count > 0 ? [{ kind, count, label: plural(count, one, many) }] : [];
  return {
    rules: [
      ...part('allowRules', preview.allowRules.length, 'allow-rule'),
      ...part(
        'additionalDirectories',
        preview.additionalDirectories.length,
        'additional directory',
        'additional directories',
      ),
      ...part('allowedDomains', preview.allowedDomains.length, 'network domain'),
    ],
    hooks: part('hooks', preview.hooks.length, 'hook'),
    instructions: [
      ...part('instructionFiles', preview.instructionFiles.length, 'instruction file'),
      ...part('skills', preview.skills?.length ?? 0, 'skill'),
      ...part('agents', preview.agents?.length ?? 0, 'sub-agent'),
    ],
    mcp: part('mcpServers', preview.mcpServers?.length ?? 0, 'MCP server'),
  };
}

/** "1 instruction file, 2 skills and 1 sub-agent", or "nothing". */
export function summary(parts: readonly PreviewPart[]): string {
  const labels = parts.map((p) => p.label);
  if (labels.length === 0) return 'nothing';
  return labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]!}`;
}
