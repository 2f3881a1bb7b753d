import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { TEST_SERVER } from '../support/mcp-servers';
import { noBwrapReason } from '../unit/sandbox/support';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { SIZES } from './support/ui';

const skipReason = chromiumSkipReason() ?? noBwrapReason;
const API_KEY = 'test-key-rule-builder-mcp';
const SERVER = `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(TEST_SERVER)}] }`;

// The rule builder's MCP choice: the project's servers and the tools the last run found, pre-filled from a tool card.
describe.skipIf(skipReason !== null)(
  `the rule builder with an MCP server${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'rule-builder-mcp',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: `trust:\n  default: trust\nmcpServers:\n  tst: ${SERVER}\n`,
      },
      (started) => {
        app = started;
      },
    );

    it('"Make a rule" on an MCP tool card -> the server and tool chosen -> mcp__tst__write_marker saved locally', async () => {
      app.model.enqueue(
        reply(toolUse('toolu_mcp', 'mcp__tst__write_marker', { path: 'from-mcp.txt' })),
        reply(text('Not written.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Write the marker');
      await box.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible', timeout: 60_000 });
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
      await expect.poll(() => app.model.pending(), POLL).toBe(0);
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);

      const card = page.getByRole('log', { name: 'Conversation' }).getByTestId('tool-card').last();
      await card.getByRole('button', { name: /^Make a rule from mcp__tst__write_marker/ }).click();
      const b = page.getByTestId('rule-builder');
      await expect.poll(() => b.getByRole('radio', { name: 'An MCP server or tool' }).isChecked(), POLL).toBe(true);
      const servers = b.getByTestId('builder-mcp-servers');
      await expect.poll(() => servers.getByRole('radio', { name: 'tst' }).isChecked(), POLL).toBe(true);
      // The tools the last run found are offered, this one chosen.
      const tools = b.getByTestId('builder-mcp-tools');
      await expect.poll(() => tools.getByRole('radio').count(), POLL).toBe(8);
      expect(await tools.getByRole('radio', { name: 'write_marker' }).isChecked()).toBe(true);
      await expect.poll(() => b.getByTestId('builder-rule').textContent(), POLL).toBe('mcp__tst__write_marker');
      await expect
        .poll(() => b.getByTestId('builder-replay-row').textContent(), POLL)
        .toMatch(/mcp__tst__write_marker.*ask.*would become.*allow/);
      // The whole server instead, then back to the one tool.
      await tools.getByRole('radio', { name: 'Every tool of this server' }).check();
      await expect.poll(() => b.getByTestId('builder-rule').textContent(), POLL).toBe('mcp__tst');
      await tools.getByRole('radio', { name: 'write_marker' }).check();

      await b.getByRole('button', { name: 'Save rule' }).click();
      const localFile = path.join(app.project, '.gatehouse/settings.local.yaml');
      await expect.poll(() => b.getByTestId('builder-status').textContent(), POLL).toContain(localFile);
      expect(fs.readFileSync(localFile, 'utf8')).toContain('mcp__tst__write_marker');
      const out = execFileSync(
        process.execPath,
        [
          CLI_PATH,
          'permissions',
          'check',
          '--project',
          app.project,
          '--call',
          JSON.stringify({ tool: 'mcp__tst__write_marker', input: { path: 'x' } }),
        ],
        { env: { ...process.env, GATEHOUSE_HOME: app.home, HOME: app.home }, encoding: 'utf8' },
      );
      expect(JSON.parse(out.trim().split('\n').pop() ?? '{}')).toMatchObject({
        decision: 'allow',
        source: 'local',
        rule: 'mcp__tst__write_marker',
      });
      expect(problems).toEqual([]);
    });
  },
);
