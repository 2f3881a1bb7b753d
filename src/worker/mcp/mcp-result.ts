/**
 * An MCP tool's result as the model gets it: text blocks as they are, other blocks described in one line
 * (`[image image/png, 12,345 bytes]`), structured content as JSON when there is no text, then cleaned like command
 * output (escape sequences and control characters removed) and capped (head and tail, with a marker saying how much
 * was cut). The server's words are untrusted: nothing in them is acted on.
 */
import { cleanTerminalOutput } from '../../shared/terminal-text';
import { truncateHeadTail } from '../tools/truncate';
import type { ToolResult } from '../tools/types';

/** Most characters of an MCP tool's result the model gets (the same cap as any tool's output). */
const MAX_MCP_RESULT_CHARS = 30_000;
/** Most characters of one call's arguments (JSON) sent to a server. */
const MAX_MCP_ARGUMENT_CHARS = 200_000;

interface ContentBlock {
  type: string;
  text?: unknown;
  mimeType?: unknown;
  data?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
}

function describeBlock(block: ContentBlock): string {
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  switch (block.type) {
    case 'text':
      return str(block.text);
    case 'image':
    case 'audio': {
      const bytes = Math.floor((str(block.data).length * 3) / 4);
      return `[${block.type} ${str(block.mimeType) || 'of unknown type'}, ${bytes.toLocaleString('en-US')} bytes]`;
    }
    case 'resource': {
      const r = block.resource ?? {};
      if (typeof r.text === 'string') return `[resource ${str(r.uri)}]\n${r.text}`;
      return `[resource ${str(r.uri)}${str(r.mimeType) ? ` ${str(r.mimeType)}` : ''} (binary, not shown)]`;
    }
    case 'resource_link':
      return `[resource link ${str(block.uri)}${str(block.name) ? ` (${str(block.name)})` : ''}]`;
    default:
      return `[${String(block.type)} content, not shown]`;
  }
}

/** The model's copy of a `tools/call` result (already validated by the SDK as a CallToolResult). */
export function resultText(result: { content?: unknown; structuredContent?: unknown; isError?: unknown }): ToolResult {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  let text = blocks.map(describeBlock).join('\n');
  if (text.trim() === '' && result.structuredContent !== undefined)
    text = JSON.stringify(result.structuredContent, null, 2);
  if (text.trim() === '') text = '(the tool returned no content)';
  return { content: capResult(text), isError: result.isError === true };
}

export function capResult(text: string, max = MAX_MCP_RESULT_CHARS): string {
  return truncateHeadTail(cleanTerminalOutput(text), max);
}

/** Why these arguments are not sent (too big), or null. */
export function argumentsProblem(args: Record<string, unknown>, max = MAX_MCP_ARGUMENT_CHARS): string | null {
  const size = JSON.stringify(args).length;
  return size > max
    ? `the arguments are ${size.toLocaleString('en-US')} characters of JSON; an MCP tool takes at most ${max.toLocaleString('en-US')}`
    : null;
}
