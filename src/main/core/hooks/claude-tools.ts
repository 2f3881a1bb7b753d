import path from 'node:path';
import type { ToolName } from '../../../shared/tools';

/**
 * Claude Code's names and input fields for Gatehouse's tools, both ways: hooks written for Claude Code receive
 * `Bash {command}`, `Read {file_path}`... (paths absolute, as Claude Code sends them), and `gatehouse hook claude`
 * turns Claude Code's calls into Gatehouse's to decide them.
 */
export const CLAUDE_TOOL_NAMES: Record<ToolName, string> = {
  run_command: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  find_files: 'Glob',
  search_code: 'Grep',
};

type Fields = Record<string, unknown>;

function defined(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function absolute(projectRoot: string, p: unknown): unknown {
  return typeof p === 'string' ? path.resolve(projectRoot, p) : p;
}

/** A Gatehouse call as a Claude Code hook sees it: `tool_name` and `tool_input` in Claude Code's names and fields. */
export function toClaudeCall(
  tool: ToolName,
  input: Fields,
  projectRoot: string,
): { tool_name: string; tool_input: Fields } {
  const tool_name = CLAUDE_TOOL_NAMES[tool];
  switch (tool) {
    case 'run_command':
      return { tool_name, tool_input: defined({ command: input.command, timeout: input.timeout_ms }) };
    case 'read_file':
      return {
        tool_name,
        tool_input: defined({ file_path: absolute(projectRoot, input.path), offset: input.offset, limit: input.limit }),
      };
    case 'write_file':
      return { tool_name, tool_input: { file_path: absolute(projectRoot, input.path), content: input.content } };
    case 'edit_file':
      return {
        tool_name,
        tool_input: defined({
          file_path: absolute(projectRoot, input.path),
          old_string: input.old_string,
          new_string: input.new_string,
          replace_all: input.replace_all,
        }),
      };
    case 'find_files':
      return { tool_name, tool_input: defined({ pattern: input.pattern, path: absolute(projectRoot, input.path) }) };
    case 'search_code':
      return {
        tool_name,
        tool_input: defined({
          pattern: input.pattern,
          path: absolute(projectRoot, input.path),
          glob: input.glob,
          '-i': input.case_insensitive,
        }),
      };
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * Claude Code's call as a Gatehouse call, or null for a tool Gatehouse does not model (WebFetch, Task, mcp__...):
 * those pass through. Fields Gatehouse does not judge (`description`, `run_in_background`) are dropped; a missing
 * required field is kept missing, so the schema stage denies the call with the reason.
 */
export function fromClaudeCall(toolName: string, toolInput: unknown): { tool: ToolName; input: Fields } | null {
  const i: Fields = typeof toolInput === 'object' && toolInput !== null ? (toolInput as Fields) : {};
  switch (toolName) {
    case 'Bash':
      return { tool: 'run_command', input: defined({ command: i.command }) };
    case 'Read':
      return { tool: 'read_file', input: defined({ path: i.file_path }) };
    case 'Write':
      return { tool: 'write_file', input: defined({ path: i.file_path, content: i.content }) };
    case 'Edit':
      // An empty old_string creates the file: a write of new_string.
      if (i.old_string === '')
        return { tool: 'write_file', input: defined({ path: i.file_path, content: i.new_string }) };
      return {
        tool: 'edit_file',
        input: defined({ path: i.file_path, old_string: i.old_string, new_string: i.new_string }),
      };
    case 'MultiEdit': {
      const first = Array.isArray(i.edits) ? (i.edits[0] as Fields | undefined) : undefined;
      return {
        tool: 'edit_file',
        input: defined({ path: i.file_path, old_string: str(first?.old_string) || 'x', new_string: '' }),
      };
    }
    case 'NotebookEdit':
      return { tool: 'write_file', input: defined({ path: i.notebook_path, content: str(i.new_source) ?? '' }) };
    case 'Glob':
      return { tool: 'find_files', input: defined({ pattern: i.pattern, path: i.path }) };
    case 'Grep':
      return { tool: 'search_code', input: defined({ pattern: i.pattern, path: i.path, glob: i.glob }) };
    default:
      return null;
  }
}
