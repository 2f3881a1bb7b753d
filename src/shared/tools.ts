import { z } from 'zod';

/** The tools the agent has, their input schemas (what the model sees, converted to JSON schema) and safety. */
export const ToolSafetySchema = z.enum(['readOnly', 'write', 'exec']);
export type ToolSafety = z.infer<typeof ToolSafetySchema>;

/** Permission categories of the contract: a command proved read-only counts as `read`. */
export type ToolCategory = 'read' | 'write' | 'exec';

const relPath = z.string().min(1, 'path must not be empty');

export const ReadFileInput = z.object({
  path: relPath.describe('File to read, relative to the project root'),
  offset: z.number().int().min(1).optional().describe('First line to read (1-based)'),
  limit: z.number().int().min(1).optional().describe('Number of lines to read'),
});
export const WriteFileInput = z.object({
  path: relPath.describe('File to write, relative to the project root'),
  content: z.string().describe('The whole new content of the file'),
});
export const EditFileInput = z.object({
  path: relPath.describe('File to edit, relative to the project root'),
  old_string: z.string().min(1, 'old_string must not be empty').describe('Exact text to replace'),
  new_string: z.string().describe('Replacement text'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of exactly one'),
});
export const FindFilesInput = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. src/**/*.ts'),
  path: z.string().min(1).optional().describe('Folder to search in, relative to the project root'),
});
export const SearchCodeInput = z.object({
  pattern: z.string().min(1).describe('Regular expression to search for'),
  path: z.string().min(1).optional().describe('Folder or file to search, relative to the project root'),
  glob: z.string().min(1).optional().describe('Only search files matching this glob'),
  case_insensitive: z.boolean().optional(),
});
export const RunCommandInput = z.object({
  command: z.string().min(1, 'command must not be empty').describe('A bash command, run in the project root'),
  timeout_ms: z.number().int().min(1).max(3_600_000).optional().describe('Kill the command after this long'),
  unsandboxed: z
    .boolean()
    .optional()
    .describe(
      'Run this one command outside the OS sandbox (it can then write anywhere, read secrets and use the network). ' +
        'Only when the sandbox blocked something the task really needs. A person must approve this exact command, ' +
        'once; never remembered, never allowed by a rule or a mode, unavailable in bypass mode.',
    ),
});

/** A run_command the model asked to run outside the OS sandbox: only ever allowed once, by a person. */
export function isUnsandboxedCall(tool: string, input: unknown): boolean {
  return (
    tool === 'run_command' &&
    typeof input === 'object' &&
    input !== null &&
    (input as Record<string, unknown>).unsandboxed === true
  );
}

/**
 * What a call is about, in one line: its path, command or pattern ('' when its input names none). The approval,
 * the tool card and the terminal all name a call by this.
 */
export function callTarget(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const fields = input as Record<string, unknown>;
  const target = [fields.path, fields.command, fields.pattern].find((v) => typeof v === 'string');
  return typeof target === 'string' ? target : '';
}

export const TOOLS = {
  read_file: { safety: 'readOnly', category: 'read', input: ReadFileInput, description: 'Read a text file.' },
  find_files: { safety: 'readOnly', category: 'read', input: FindFilesInput, description: 'Find files by glob.' },
  search_code: { safety: 'readOnly', category: 'read', input: SearchCodeInput, description: 'Search file contents.' },
  write_file: { safety: 'write', category: 'write', input: WriteFileInput, description: 'Create or overwrite a file.' },
  edit_file: { safety: 'write', category: 'write', input: EditFileInput, description: 'Replace text in a file.' },
  run_command: { safety: 'exec', category: 'exec', input: RunCommandInput, description: 'Run a shell command.' },
} as const satisfies Record<
  string,
  { safety: ToolSafety; category: ToolCategory; input: z.ZodType; description: string }
>;

export type ToolName = keyof typeof TOOLS;
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOLS, name);
}

/** A tool call as the model sends it: untrusted. */
export const ToolCallSchema = z.object({
  tool: z.string().min(1),
  input: z.unknown(),
});
