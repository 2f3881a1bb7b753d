import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { TEST_SERVER } from '../support/mcp-servers';
import { noBwrapReason } from '../unit/sandbox/support';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { openView, seriousViolations, setTheme, SIZES } from './support/ui';

const skipReason = chromiumSkipReason() ?? noBwrapReason;
const API_KEY = 'test-key-mcp';
const SERVER = `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(TEST_SERVER)}] }`;

/** `gatehouse mcp list --json`: whether each server loads, as the engine's next run will see it. */
function cliActive(home: string, project: string): Record<string, boolean> {
  const out = execFileSync(process.execPath, [CLI_PATH, 'mcp', 'list', '--project', project, '--json'], {
    env: { ...process.env, GATEHOUSE_HOME: home, HOME: home },
    encoding: 'utf8',
  });
  const list = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { servers: { name: string; active: boolean }[] };
  return Object.fromEntries(list.servers.map((s) => [s.name, s.active]));
}

const row = (page: Page, name: string) => page.locator(`[data-testid="mcp-row"][data-server="${name}"]`);

// The MCP page and the approval of an MCP call, in Chromium through the browser shell; the SDK-built test server
// runs for real (in bubblewrap).
describe.skipIf(skipReason !== null)(
  `MCP servers in the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'mcp',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: `trust:\n  default: trust\nmcpServers:\n  tst: ${SERVER}\n`,
        prepare: (project) => {
          fs.writeFileSync(
            path.join(project, '.mcp.json'),
            JSON.stringify({ mcpServers: { proj: { command: process.execPath, args: [TEST_SERVER] } } }),
          );
        },
      },
      (started) => {
        app = started;
      },
    );

    it('lists the servers and why one does not load; approve (keyboard), test and revoke; axe-clean', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'MCP servers');
      await row(page, 'proj').waitFor();
      expect(await row(page, 'tst').getAttribute('data-active')).toBe('true');
      expect(await row(page, 'proj').getAttribute('data-active')).toBe('false');
      expect(await row(page, 'proj').textContent()).toContain('not approved yet');
      const found: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        for (const v of await seriousViolations(page)) found.push(`${theme}: ${v}`);
      }
      expect(found).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'mcp-servers.png') });

      // Approve by keyboard: the dialog shows the command line; Enter on its Approve button.
      await row(page, 'proj').getByRole('button', { name: 'Approve MCP server proj' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Approve the MCP server proj?' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(TEST_SERVER);
      await dialog.getByRole('button', { name: 'Approve', exact: true }).focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => row(page, 'proj').getAttribute('data-active'), POLL).toBe('true');
      expect(cliActive(app.home, app.project)).toEqual({ tst: true, proj: true });

      // Test: the server starts as a run would; its tools with the engine's category.
      await row(page, 'tst').getByRole('button', { name: 'Test MCP server tst' }).click();
      const result = page.getByTestId('mcp-test');
      await result.waitFor(POLL);
      expect(await result.getByRole('heading').textContent()).toBe('Test of tst: connected');
      expect(await result.locator('[data-testid="mcp-tool"][data-category="read"]').allTextContents()).toEqual([
        'read mcp__tst__peek',
      ]);
      expect(await result.textContent()).toContain('tool "not_object" is left out');
      for (const v of await seriousViolations(page)) found.push(`after test: ${v}`);
      expect(found).toEqual([]);

      await row(page, 'proj').getByRole('button', { name: 'Revoke approval of MCP server proj' }).click();
      await expect.poll(() => row(page, 'proj').getAttribute('data-active'), POLL).toBe('false');
      expect(cliActive(app.home, app.project)).toEqual({ tst: true, proj: false });

      // Your own server, switched off for this project and back on.
      await row(page, 'tst').getByRole('button', { name: 'Disable MCP server tst in this project' }).click();
      await expect.poll(() => row(page, 'tst').getAttribute('data-active'), POLL).toBe('false');
      expect(await row(page, 'tst').textContent()).toContain('switched off for this project');
      expect(cliActive(app.home, app.project)).toEqual({ tst: false, proj: false });
      await row(page, 'tst').getByRole('button', { name: 'Enable MCP server tst in this project' }).click();
      await expect.poll(() => row(page, 'tst').getAttribute('data-active'), POLL).toBe('true');
      expect(cliActive(app.home, app.project)).toEqual({ tst: true, proj: false });
      expect(problems).toEqual([]);
    });

    it('the approval of an MCP call shows its server, its tool and its arguments; allowed once, it runs', async () => {
      app.model.enqueue(
        reply(toolUse('toolu_mcp', 'mcp__tst__write_marker', { path: 'from-mcp.txt' })),
        reply(text('Marker written.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await page.getByRole('combobox', { name: 'Agent mode' }).selectOption('do');
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Write the marker');
      await box.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible', timeout: 60_000 });
      expect(await dialog.getByTestId('approval-mcp-server').innerText()).toBe('tst');
      expect(await dialog.getByTestId('approval-mcp-tool').innerText()).toContain('write_marker');
      expect(await dialog.getByTestId('approval-input').innerText()).toContain('"path": "from-mcp.txt"');
      expect(await seriousViolations(page, '.approval-dialog')).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'mcp-approval.png') });
      await waitUntilAnswerable(dialog);
      await dialog.getByRole('button', { name: 'Allow once', exact: true }).click();
      await expect
        .poll(
          () => page.getByRole('log', { name: 'Conversation' }).getByTestId('assistant-message').last().textContent(),
          POLL,
        )
        .toContain('Marker written.');
      expect(fs.readFileSync(path.join(app.project, 'from-mcp.txt'), 'utf8')).toBe('marker\n');
      // The MCP page says how that prompt found the server.
      await openView(page, 'MCP servers');
      await expect
        .poll(() => row(page, 'tst').getByTestId('mcp-last-run').textContent(), POLL)
        .toBe('last prompt: 7 tools');
      expect(problems).toEqual([]);
    });

    it('adds, edits and removes a server from the page: each lands in its settings file; the badge follows its test', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'MCP servers');
      await row(page, 'tst').waitFor();
      const local = path.join(app.project, '.gatehouse', 'settings.local.yaml');
      const user = path.join(app.home, 'settings.yaml');

      // Add: a command and its arguments, one per line; the scope chooser explains each scope in one line.
      await page.getByRole('button', { name: 'Add server', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add an MCP server' });
      await dialog.waitFor();
      expect(await dialog.getByRole('radio', { name: 'Local' }).isChecked()).toBe(true);
      expect(await dialog.getByRole('group', { name: 'Where it is written' }).textContent()).toContain(local);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'mcp-add-dialog.png') });
      const found: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        for (const v of await seriousViolations(page)) found.push(`dialog ${theme}: ${v}`);
      }
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('added');
      // A command line typed whole is refused by main with the reason, nothing written.
      await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill('node server.js');
      await dialog.getByRole('button', { name: 'Add server' }).click();
      await expect.poll(() => dialog.getByTestId('mcp-form-error').textContent(), POLL).toContain('holds spaces');
      expect(fs.existsSync(local)).toBe(false);
      await dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
      await dialog.getByRole('textbox', { name: 'Arguments, one per line' }).fill(TEST_SERVER);
      await dialog.getByRole('button', { name: 'Add server' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, 'added').waitFor();
      expect(fs.readFileSync(local, 'utf8')).toContain('added:');
      // Written by the person on the page: approved as written, so it loads in this trusted project.
      await expect.poll(() => row(page, 'added').getAttribute('data-active'), POLL).toBe('true');
      expect(cliActive(app.home, app.project)).toMatchObject({ added: true });
      expect(await row(page, 'added').getByTestId('mcp-state').textContent()).toBe('loads');

      // Test: connected, and the badge says so.
      await row(page, 'added').getByRole('button', { name: 'Test MCP server added' }).click();
      await expect.poll(() => row(page, 'added').getByTestId('mcp-state').textContent(), POLL).toBe('connected');

      // Edit it into a server that fails at once: the test says "did not start", and so does the badge, with the
      // server's own error first.
      await row(page, 'added').getByRole('button', { name: 'Edit MCP server added' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit MCP server' });
      await edit
        .getByRole('textbox', { name: 'Arguments, one per line' })
        .fill('-e\nprocess.stderr.write("no database configured\\n"); process.exit(3)');
      await edit.getByRole('button', { name: 'Save server' }).click();
      await edit.waitFor({ state: 'detached' });
      await expect.poll(() => row(page, 'added').getByTestId('mcp-state').textContent(), POLL).toBe('loads');
      await row(page, 'added').getByRole('button', { name: 'Test MCP server added' }).click();
      await expect
        .poll(() => page.getByTestId('mcp-test').getByRole('heading').textContent(), POLL)
        .toBe('Test of added: did not start');
      await expect.poll(() => row(page, 'added').getByTestId('mcp-state').textContent(), POLL).toBe('did not start');
      expect(await row(page, 'added').getByTestId('mcp-state-error').textContent()).toMatch(
        /its last error output: no database configured/,
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, 'mcp-failed-test.png') });
      for (const v of await seriousViolations(page)) found.push(`after a failed test: ${v}`);

      // Move it to your own settings: written there first, then taken out of the local file.
      await row(page, 'added').getByRole('button', { name: 'Edit MCP server added' }).click();
      await edit.getByRole('radio', { name: 'User' }).check();
      await edit.getByRole('button', { name: 'Save server' }).click();
      await edit.waitFor({ state: 'detached' });
      await expect.poll(() => row(page, 'added').locator('td').nth(1).textContent(), POLL).toContain('your settings');
      expect(fs.readFileSync(user, 'utf8')).toContain('added:');
      expect(fs.readFileSync(local, 'utf8')).not.toContain('added:');

      // Remove, after a confirmation.
      await row(page, 'added').getByRole('button', { name: 'Remove MCP server added' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove the MCP server added?' });
      await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
      await expect.poll(() => row(page, 'added').count(), POLL).toBe(0);
      expect(fs.readFileSync(user, 'utf8')).not.toContain('added:');
      expect(cliActive(app.home, app.project)).not.toHaveProperty('added');
      // The .mcp.json server is not the page's to edit: it says where to.
      expect(await row(page, 'proj').getByRole('button', { name: 'Edit MCP server proj' }).count()).toBe(0);
      expect(await row(page, 'proj').textContent()).toContain(".mcp.json (Claude Code's file)");
      expect(found).toEqual([]);
      expect(problems).toEqual([]);
    });
  },
);
