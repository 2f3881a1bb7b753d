import picomatch from 'picomatch';
import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';
import type { RuleBehavior } from '../../../../shared/permission';
import type { ToolName } from '../../../../shared/tools';
import { compileCommandPattern, literalLeadingWords, type CommandMatcher } from './command-pattern';
import {
  compilePathPatternParts,
  pathViews,
  type CompiledPathPattern,
  type PathPatternBase,
  type PathViews,
} from './path-pattern';
import { matchesOnlyCodeFolders, matchesOnlySecrets } from './narrow-pattern';
import { PathRuleIndex } from './path-rule-index';
import { SOURCE_ORDER, type LoadedRule, type RuleSourceName } from '../../rule-syntax/rule-types';

/** A loaded rule with its matcher compiled once. */
export interface CompiledRule extends LoadedRule {
  rank: number;
  command: CommandMatcher | null;
  path: CompiledPathPattern | null;
  /** Which kinds of protected files this path rule's pattern matches exclusively (see narrow-pattern.ts). */
  only: { secrets: boolean; codeFolders: boolean };
}

/** Which allow rules count: in an untrusted project, project and local allow rules are not loaded. */
export interface AllowFilter {
  excludeSources: ReadonlySet<RuleSourceName>;
  /**
   * The path is a secret (`secrets`) or lies under a code-running folder (`codeFolders`): only a rule whose pattern
   * matches nothing but such files counts (contract "Defaults": a broad rule never unlocks them).
   */
  only?: 'secrets' | 'codeFolders';
}

const NO_FILTER: AllowFilter = { excludeSources: new Set() };

/** Command rules indexed by their literal leading words: a lookup walks the command's words down the trie. */
interface WordTrie {
  rules: CompiledRule[];
  children: Map<string, WordTrie>;
}

const newTrie = (): WordTrie => ({ rules: [], children: new Map() });

/** A path pattern may match some file called `name`: its last segment matches it, or matches anything below a folder. */
function lastSegmentMayMatch(specifier: string, name: string, sys: PathSystem): boolean {
  const spec = sys.canonicalRulePattern(specifier.trim()).replace(/\/+$/, '/**');
  const last = spec.split('/').pop() ?? '';
  // a pattern with no slash also matches everything below a folder of that name
  if (last === '' || last.includes('**') || !spec.includes('/')) return true;
  return picomatch(last, { dot: true, nocase: sys.foldCase })(sys.nameKey(name));
}

/** A rule written with a Gatehouse tool's own name (`read_file`, `write_file(...)`): it applies to that tool only. */
export function namesOneTool(rule: LoadedRule): boolean {
  return rule.tools.length === 1 && rule.toolName === rule.tools[0];
}

function bestOf(a: CompiledRule | null, b: CompiledRule): CompiledRule {
  return a === null || b.rank < a.rank ? b : a;
}

/**
 * Every effective rule, compiled and indexed: command rules by their literal first word, path rules by tool
 * and behaviour. Queries return the winning rule of one behaviour (the first by source order) or null.
 */
export class RuleSet {
  private readonly commandIndex = new Map<RuleBehavior, WordTrie>();
  private readonly allCommandRules = new Map<RuleBehavior, CompiledRule[]>();
  private readonly byToolBehavior = new Map<string, CompiledRule[]>();
  private readonly pathIndex = new Map<string, PathRuleIndex<CompiledRule>>();

  private readonly mcpRules: CompiledRule[] = [];
  private readonly viewCache = new Map<string, PathViews>();
  private readonly sys: PathSystem;

  constructor(
    readonly rules: readonly LoadedRule[],
    private readonly base: PathPatternBase,
  ) {
    this.sys = base.sys ?? HOST_PATHS;
    const compiled = rules.map((r, i) => this.compile(r, i)).sort((a, b) => a.rank - b.rank);
    for (const behavior of ['allow', 'ask', 'deny'] as const) {
      this.commandIndex.set(behavior, newTrie());
      this.allCommandRules.set(behavior, []);
    }
    for (const rule of compiled) {
      if (rule.mcp) this.mcpRules.push(rule);
      for (const tool of rule.tools) {
        const key = `${tool}:${rule.behavior}`;
        const list = this.byToolBehavior.get(key) ?? [];
        list.push(rule);
        this.byToolBehavior.set(key, list);
        if (rule.kind === 'path' || rule.kind === 'any') {
          const index = this.pathIndex.get(key) ?? new PathRuleIndex<CompiledRule>(this.sys);
          index.add(rule);
          this.pathIndex.set(key, index);
        }
      }
      if (rule.command) {
        let node = this.commandIndex.get(rule.behavior)!;
        for (const word of literalLeadingWords(rule.specifier ?? '')) {
          let next = node.children.get(word);
          if (!next) node.children.set(word, (next = newTrie()));
          node = next;
        }
        node.rules.push(rule);
        this.allCommandRules.get(rule.behavior)!.push(rule);
      }
    }
  }

  private views(abs: string): PathViews {
    let v = this.viewCache.get(abs);
    if (!v) {
      if (this.viewCache.size > 2000) this.viewCache.clear();
      v = pathViews(abs, this.base);
      this.viewCache.set(abs, v);
    }
    return v;
  }

  private compile(rule: LoadedRule, i: number): CompiledRule {
    const rank = SOURCE_ORDER.indexOf(rule.source) * 1_000_000 + i;
    const command = rule.kind === 'command' && rule.specifier !== null ? compileCommandPattern(rule.specifier) : null;
    const pathMatcher =
      rule.kind === 'path' && rule.specifier !== null ? compilePathPatternParts(rule.specifier, this.sys) : null;
    const narrow = rule.kind === 'path' && rule.specifier !== null ? rule.specifier : null;
    const only = {
      secrets: narrow !== null && matchesOnlySecrets(narrow, this.sys),
      codeFolders: narrow !== null && matchesOnlyCodeFolders(narrow, this.sys),
    };
    return { ...rule, rank, command, path: pathMatcher, only };
  }

  private bare(tool: ToolName, behavior: RuleBehavior, filter: AllowFilter): CompiledRule | null {
    for (const r of this.byToolBehavior.get(`${tool}:${behavior}`) ?? []) {
      if (r.kind === 'any' && !filter.excludeSources.has(r.source)) return r;
    }
    return null;
  }

  /** The winning rule of `behavior` among bare `Bash`/`run_command` rules and command rules matching any of the word lists. */
  matchCommand(
    behavior: RuleBehavior,
    wordLists: readonly (readonly string[])[],
    filter: AllowFilter = NO_FILTER,
  ): CompiledRule | null {
    let best = this.bare('run_command', behavior, filter);
    for (const words of wordLists) {
      if (words.length === 0) continue;
      for (const r of this.candidates(behavior, words)) {
        if (filter.excludeSources.has(r.source)) continue;
        if ((best === null || r.rank < best.rank) && r.command!(words)) best = bestOf(best, r);
      }
    }
    return best;
  }

  /** Command rules that may match `words`: those whose literal leading words are a prefix of them. */
  private candidates(behavior: RuleBehavior, words: readonly string[]): CompiledRule[] {
    // A word with whitespace in it spans several words of a rule's text: no shortcut, try every rule.
    if (words.some((w) => /\s/.test(w))) return this.allCommandRules.get(behavior)!;
    const out: CompiledRule[] = [];
    let node: WordTrie | undefined = this.commandIndex.get(behavior)!;
    for (let i = 0; node; i++) {
      out.push(...node.rules);
      if (i >= words.length) break;
      node = node.children.get(words[i]!);
    }
    return out;
  }

  /** The winning rule of `behavior` for `tool` whose pattern matches any of the absolute paths (or a bare rule). */
  matchPath(
    tool: ToolName,
    behavior: RuleBehavior,
    paths: readonly string[],
    filter: AllowFilter = NO_FILTER,
  ): CompiledRule | null {
    const index = this.pathIndex.get(`${tool}:${behavior}`);
    if (!index) return null;
    const only = filter.only;
    return index.best(
      paths.map((p) => this.views(p)),
      (r) => filter.excludeSources.has(r.source) || (only !== undefined && !r.only[only]),
    );
  }

  /**
   * The winning rule of `behavior` among those that judge the files a command reads (`read`: `Read(...)`) or writes
   * (`write`: `Edit(...)`, `Write(...)`). A rule written with one tool's own name (`read_file(README.md)`,
   * `write_file(src/**)`) applies to that one tool only (contract, "Rules"), never to a command's files.
   */
  matchCommandPath(
    access: 'read' | 'write',
    behavior: RuleBehavior,
    paths: readonly string[],
    filter: AllowFilter = NO_FILTER,
  ): CompiledRule | null {
    const index = this.pathIndex.get(`${access === 'read' ? 'read_file' : 'write_file'}:${behavior}`);
    if (!index) return null;
    const only = filter.only;
    return index.best(
      paths.map((p) => this.views(p)),
      (r) => filter.excludeSources.has(r.source) || namesOneTool(r) || (only !== undefined && !r.only[only]),
    );
  }

  /**
   * The winning rule of `behavior` for `tool` that may cover a file named `name` in a folder that is not known
   * (null: the name is not known either). A pattern whose last segment matches the name (or any name) may.
   */
  matchUnknownPath(
    tool: ToolName,
    behavior: RuleBehavior,
    name: string | null,
    opts: { commandFiles?: boolean } = {},
  ): CompiledRule | null {
    let best: CompiledRule | null = null;
    for (const r of this.byToolBehavior.get(`${tool}:${behavior}`) ?? []) {
      if (opts.commandFiles === true && namesOneTool(r)) continue;
      if (r.kind !== 'any' && (r.kind !== 'path' || r.specifier === null)) continue;
      if (r.kind === 'path' && name !== null && !lastSegmentMayMatch(r.specifier ?? '', name, this.sys)) continue;
      best = bestOf(best, r);
    }
    return best;
  }

  /** The winning rule of `behavior` for a tool of an MCP server: `mcp__server`, `mcp__server__*` or its own name. */
  matchMcp(server: string, tool: string, behavior: RuleBehavior, filter: AllowFilter = NO_FILTER): CompiledRule | null {
    for (const r of this.mcpRules) {
      if (r.behavior !== behavior || filter.excludeSources.has(r.source)) continue;
      if (r.mcp!.server === server && (r.mcp!.tool === null || r.mcp!.tool === tool)) return r;
    }
    return null;
  }

  /** Whether `tool` has a bare rule or a rule of `behavior` at all (quick exits). */
  has(tool: ToolName, behavior: RuleBehavior): boolean {
    return (this.byToolBehavior.get(`${tool}:${behavior}`) ?? []).length > 0;
  }
}
