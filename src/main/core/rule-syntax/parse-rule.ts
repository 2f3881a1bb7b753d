import picomatch from 'picomatch';
import { MCP_PREFIX, MCP_TOOL_NAME, serverNameProblem } from '../../../shared/mcp-contract';
import type { ToolName } from '../../../shared/tools';
import type { ParsedRule, RuleMatcherKind } from './rule-types';

/** Claude Code names and Gatehouse's own tool names, with the tools and kind of specifier they take. */
const TOOL_ALIASES: Record<
  string,
  { tools: readonly ToolName[]; kind: Exclude<RuleMatcherKind, 'any' | 'none' | 'mcp'> }
> = {
  Bash: { tools: ['run_command'], kind: 'command' },
  run_command: { tools: ['run_command'], kind: 'command' },
  Read: { tools: ['read_file', 'find_files', 'search_code'], kind: 'path' },
  read_file: { tools: ['read_file'], kind: 'path' },
  Glob: { tools: ['find_files'], kind: 'path' },
  find_files: { tools: ['find_files'], kind: 'path' },
  Grep: { tools: ['search_code'], kind: 'path' },
  search_code: { tools: ['search_code'], kind: 'path' },
  Edit: { tools: ['write_file', 'edit_file'], kind: 'path' },
  Write: { tools: ['write_file', 'edit_file'], kind: 'path' },
  MultiEdit: { tools: ['write_file', 'edit_file'], kind: 'path' },
  write_file: { tools: ['write_file'], kind: 'path' },
  edit_file: { tools: ['edit_file'], kind: 'path' },
};

const LOWERCASE_ALIASES = new Map(Object.keys(TOOL_ALIASES).map((k) => [k.toLowerCase(), k]));

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

export type RuleParseResult = { ok: true; rule: ParsedRule } | { ok: false; reason: string };

/** Parses `Tool` or `Tool(specifier)` (Claude Code's syntax). Never throws. */
export function parseRule(input: string): RuleParseResult {
  if (typeof input !== 'string') return { ok: false, reason: 'a rule must be a string' };
  const text = input.trim();
  if (!text) return { ok: false, reason: 'empty rule' };
  if (/[\r\n]/.test(text)) return { ok: false, reason: 'a rule must be on one line' };
  const open = text.indexOf('(');
  let toolName: string;
  let specifier: string | null = null;
  if (open === -1) {
    if (text.includes(')')) return { ok: false, reason: 'unbalanced parentheses' };
    toolName = text;
  } else {
    if (!text.endsWith(')')) return { ok: false, reason: 'a rule with a specifier must end with ")"' };
    toolName = text.slice(0, open).trim();
    specifier = text.slice(open + 1, -1).trim();
    if (!specifier) return { ok: false, reason: `empty specifier: write "${toolName}" to match every call` };
  }
  if (toolName.startsWith(MCP_PREFIX)) return parseMcpRule(text, toolName, specifier);
  if (!TOOL_NAME.test(toolName)) return { ok: false, reason: `"${toolName}" is not a tool name` };
  const alias = TOOL_ALIASES[toolName];
  if (!alias) {
    const near = LOWERCASE_ALIASES.get(toolName.toLowerCase());
    if (near)
      return {
        ok: false,
        reason: `unknown tool "${toolName}": tool names are case-sensitive, did you mean "${near}"?`,
      };
    // A tool Gatehouse does not have (yet): kept and listed, matches nothing until such a tool exists.
    return { ok: true, rule: { text, toolName, specifier, tools: [], kind: 'none' } };
  }
  if (specifier === null) return { ok: true, rule: { text, toolName, specifier, tools: alias.tools, kind: 'any' } };
  if (alias.kind === 'path') {
    const problem = checkPathPattern(specifier);
    if (problem) return { ok: false, reason: problem };
  } else if (specifier === ':*') {
    return { ok: false, reason: 'a command prefix is missing before ":*"' };
  }
  return { ok: true, rule: { text, toolName, specifier, tools: alias.tools, kind: alias.kind } };
}

/**
 * `mcp__server` and `mcp__server__*` (every tool of the server) and `mcp__server__tool` (one tool), as in Claude
 * Code. No specifier: an MCP tool's arguments are the server's business, a rule names the tool.
 */
function parseMcpRule(text: string, toolName: string, specifier: string | null): RuleParseResult {
  if (specifier !== null)
    return { ok: false, reason: `an MCP rule names a tool and takes no specifier: write "${toolName}"` };
  const rest = toolName.slice(MCP_PREFIX.length);
  const at = rest.indexOf('__');
  const server = at === -1 ? rest : rest.slice(0, at);
  const tool = at === -1 ? null : rest.slice(at + 2);
  const badServer = serverNameProblem(server);
  if (badServer) return { ok: false, reason: `"${toolName}": ${badServer}` };
  if (tool === '') return { ok: false, reason: `"${toolName}": a tool name is missing after "__" (or write "*")` };
  if (tool !== null && tool !== '*' && !MCP_TOOL_NAME.test(toolName))
    return { ok: false, reason: `"${toolName}" is not an MCP tool name (letters, digits, "_" and "-", at most 64)` };
  const mcp = { server, tool: tool === '*' ? null : tool };
  return { ok: true, rule: { text, toolName, specifier: null, tools: [], kind: 'mcp', mcp } };
}

function checkPathPattern(pattern: string): string | null {
  if (pattern.includes('\0')) return 'a path pattern must not contain NUL';
  try {
    picomatch.makeRe(pattern, { dot: true });
  } catch (err) {
    return `bad glob pattern: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}
