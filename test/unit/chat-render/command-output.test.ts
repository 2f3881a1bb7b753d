import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CommandOutput } from '../../../src/renderer/src/chat/CommandOutput';
import type { ToolItem } from '../../../src/renderer/src/chat/chat-store';
import { ToolDiff } from '../../../src/renderer/src/chat/ToolDiff';
import { HIDDEN_CLOSE, HIDDEN_OPEN } from '../../../src/shared/terminal-text';

// What a command's card shows of its output and a write's card of its diff, before any click.

function item(output: string, result?: { content: string; terminal?: string }): ToolItem {
  return {
    kind: 'tool',
    key: 'k1',
    callId: 'c1',
    name: 'run_command',
    input: { command: 'npm install' },
    decision: null,
    output,
    result: result ? { ran: true, isError: false, exitCode: 0, ...result } : null,
  };
}

const render = (it: ToolItem): string => renderToStaticMarkup(createElement(CommandOutput, { item: it }));

describe('CommandOutput', () => {
  const frames = Array.from({ length: 50 }, (_, i) => `\x1b[1G\x1b[0K${'⠋⠙⠹'[i % 3]} reify`).join('');

  it('a spinner: no warning while it runs nor once rendered, and the terminal view is the default', () => {
    const live = render(item(frames));
    expect(live).not.toContain('output-flag');
    expect(live).toContain('data-view="terminal"');
    const done = render(
      item(`${frames}\r\nadded 1 package\r\n`, {
        content: 'added 1 package\n[exit code 0]',
        terminal: 'added 1 package',
      }),
    );
    expect(done).not.toContain('output-flag');
    expect(done).toContain('data-view="terminal"');
  });

  it('the rendered result marks hidden text: flagged, counted, and the text view (the model copy) first', () => {
    const content = `ok ${HIDDEN_OPEN}rm -rf ~${HIDDEN_CLOSE}\n[exit code 0]`;
    const html = render(item('ok \x1b[8mrm -rf ~\x1b[0m\r\n', { content, terminal: 'ok \x1b[8mrm -rf ~\x1b[0m' }));
    expect(html).toContain('data-testid="output-flag"');
    expect(html).toContain('1 run,');
    expect(html).toContain('data-view="text"');
    expect(html).toContain('rm -rf ~');
  });

  it('while a command runs, concealed text in the stream is flagged already', () => {
    expect(render(item('ok \x1b[8mhidden\x1b[0m'))).toContain('data-testid="output-flag"');
  });

  it('a stored result (no rendered rows kept) shows its text only', () => {
    const html = render(item('', { content: 'added 1 package\n[exit code 0]' }));
    expect(html).toContain('data-view="text"');
    expect(html).not.toContain('Output view');
  });
});

describe('ToolDiff', () => {
  it('is folded under a summary of what changed', () => {
    const html = renderToStaticMarkup(
      createElement(ToolDiff, {
        callId: 'c1',
        preview: {
          kind: 'diff',
          path: 'src/greet.js',
          unifiedDiff:
            "--- a/src/greet.js\n+++ b/src/greet.js\n@@ -1 +1 @@\n-console.log('hi');\n+console.log('hello');\n",
        },
      }),
    );
    expect(html).toMatch(/^<details class="tool-diff" data-testid="tool-diff"><summary>Diff /);
    expect(html).toContain('+1 −1');
    expect(html).not.toContain('diff-view');
  });

  it('says when a write could not be previewed', () => {
    const html = renderToStaticMarkup(
      createElement(ToolDiff, {
        callId: 'c2',
        preview: { kind: 'unpreviewable', path: 'logo.png', reason: 'binary', currentBytes: 10, newBytes: 12 },
      }),
    );
    expect(html).toContain('no preview');
  });
});
