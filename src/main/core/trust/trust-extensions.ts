import { ALL_EXTENSIONS, type TrustExtensions, type TrustStatus } from '../../../shared/trust-contract';
import type { TrustAnswer, TrustOracle } from '../permission/trust-oracle';

/** What a decision enables: every extension unless it says otherwise (decisions stored before trust was specific). */
export function extensionsOf(entry: { extensions?: TrustExtensions | undefined }): TrustExtensions {
  return { ...ALL_EXTENSIONS, ...(entry.extensions ?? {}) };
}

/**
 * The `extensions` field to store: left out while everything is enabled, so a trust file stays readable by earlier
 * versions until a person switches an extension off.
 */
export function storedExtensions(extensions: TrustExtensions | undefined): { extensions?: TrustExtensions } {
  if (!extensions) return {};
  const all = extensions.rules && extensions.hooks && extensions.instructions && extensions.mcp;
  const { rules, hooks, instructions, mcp } = extensions;
  return all ? {} : { extensions: { rules, hooks, instructions, mcp } };
}

const EXTENSION_KEYS = ['rules', 'hooks', 'instructions', 'mcp'] as const;

/** "rules, hooks, instruction files and MCP servers" / "rules only" / "nothing": what a decision enables, in words. */
export function describeExtensions(extensions: TrustExtensions): string {
  const on = EXTENSION_KEYS.filter((k) => extensions[k]).map((k) => (k === 'mcp' ? 'MCP servers' : k));
  if (on.length === EXTENSION_KEYS.length) return 'its rules, hooks, instruction files and MCP servers';
  if (on.length === 0) return 'none of its rules, hooks, instruction files or MCP servers';
  const words = on.length > 1 ? `${on.slice(0, -1).join(', ')} and ${on[on.length - 1]!}` : on[0]!;
  return `its ${words} only`;
}

function answerOf(status: TrustStatus): TrustAnswer {
  return { trusted: status.trusted, extensions: status.extensions ?? ALL_EXTENSIONS };
}

/** The TrustStore as the engine asks it: trusted or not, and what the decision enables, in one look. */
export function storeOracle(store: { check(dir: string): Promise<TrustStatus> }): TrustOracle {
  return {
    isTrusted: async (dir) => (await store.check(dir)).trusted,
    answer: async (dir) => answerOf(await store.check(dir)),
  };
}
