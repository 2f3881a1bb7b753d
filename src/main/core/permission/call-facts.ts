import type { ToolCategory, ToolName } from '../../../shared/tools';
import type { CommandFacts } from './command-facts';
import { globBase, judgePath, type JudgedPath } from '../paths/judged-path';
import type { PathConfinement } from '../paths/path-confinement';

export { commandFacts, type CommandFacts } from './command-facts';

/** What the engine knows about a file tool call: the path it touches (and the folder a glob reaches). */
export interface FileFacts {
  kind: 'file';
  access: 'read' | 'write';
  target: JudgedPath;
  /** Other places the call reaches (the fixed base of a find_files pattern). */
  extra: JudgedPath[];
}

export type CallFacts = FileFacts | CommandFacts;

export function fileFacts(tool: ToolName, input: Record<string, unknown>, confinement: PathConfinement): FileFacts {
  const access = tool === 'write_file' || tool === 'edit_file' ? 'write' : 'read';
  const given = typeof input.path === 'string' ? input.path : '.';
  const target = judgePath(confinement, given);
  const extra: JudgedPath[] = [];
  // The fixed folder a glob starts from is reached too (find_files' pattern, search_code's file filter).
  const glob = tool === 'find_files' ? input.pattern : tool === 'search_code' ? input.glob : undefined;
  if (typeof glob === 'string') {
    const base = globBase(glob);
    if (base !== '.') extra.push(judgePath(confinement, confinement.sys.isRelative(base) ? `${given}/${base}` : base));
  }
  return { kind: 'file', access, target, extra };
}

export function categoryOf(tool: ToolName, facts: CallFacts, base: ToolCategory): ToolCategory {
  if (facts.kind === 'command') return facts.readOnly ? 'read' : 'exec';
  return tool === 'run_command' ? 'exec' : base;
}
