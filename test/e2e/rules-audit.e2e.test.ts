import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { makeTempDir, removeTempDir } from './support/start-web';
import { openView, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-rules-audit';
/** A GitHub token shape: the audit log and its export must never hold it. */
const SECRET = `ghp_${'1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R'}`;

/** The Audit log's filters (a search landmark): search box, decision and who answered. */
function auditFilters(page: Page) {
  const search = page.getByRole('search');
  return {
    query: search.getByRole('searchbox', { name: 'Search' }),
    decision: search.getByRole('combobox', { name: 'Decision' }),
    who: search.getByRole('combobox', { name: 'Answered by' }),
  };
}

const auditRows = (page: Page) => page.locator('.audit-table tbody tr');

describe.skipIf(skipReason !== null)(
  `the rules editor's live check and the audit log in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    useChatApp(
      {
        name: 'rules-audit',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        settings: 'trust:\n  default: trust\npermissions:\n  deny:\n    - Bash(curl:*)\n',
        prepare: (project) => fs.writeFileSync(path.join(project, 'notes.txt'), 'one\ntwo\n'),
      },
      (started) => {
        app = started;
        fake = started.model;
      },
    );

    it('a typo in a tool name says "did you mean Bash?" as you type; a rule that cannot parse blocks Add; a warned rule can still be added', async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'Rules');
      const form = page.getByRole('form', { name: 'Add a rule' });
      const ruleBox = form.getByRole('textbox', { name: 'Rule', exact: true });
      const add = form.getByRole('button', { name: 'Add rule' });
      const hint = form.getByTestId('rule-validation');
      // The hint is the box's description: a screen reader hears it with the field.
      expect(await ruleBox.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));

      await ruleBox.fill('Bsh(ls)');
      await expect.poll(() => hint.textContent(), POLL).toMatch(/did you mean Bash\?/);
      expect(await hint.textContent()).toMatch(/^Valid syntax, but: unknown tool "Bsh"/);
      expect(await hint.getAttribute('class')).toContain('rule-warning');
      expect(await ruleBox.getAttribute('aria-invalid')).toBe('false');

      await ruleBox.fill('Bash(ls');
      await expect.poll(() => hint.textContent(), POLL).toMatch(/^Invalid rule: /);
      expect(await ruleBox.getAttribute('aria-invalid')).toBe('true');
      expect(await add.isDisabled()).toBe(true);

      // A rule a hard check always overrides is flagged, per behavior: deny needs no word.
      await ruleBox.fill('Bash(sudo reboot)');
      await expect.poll(() => hint.textContent(), POLL).toMatch(/built-in deny list always wins/);
      await form.getByRole('combobox', { name: 'Behavior', exact: true }).selectOption('deny');
      await expect.poll(() => hint.textContent(), POLL).toMatch(/^Valid rule; it will be written to /);

      // The warned typo is kept if the person insists (it matches nothing), and the list flags it too.
      await form.getByRole('combobox', { name: 'Behavior', exact: true }).selectOption('allow');
      await form.getByRole('combobox', { name: 'Scope', exact: true }).selectOption('local');
      await ruleBox.fill('Bsh(ls)');
      await expect.poll(() => add.isDisabled(), POLL).toBe(false);
      await add.click();
      await page.getByRole('button', { name: 'Delete Bsh(ls)' }).waitFor();
      expect(fs.readFileSync(path.join(app.project, '.gatehouse/settings.local.yaml'), 'utf8')).toContain('Bsh(ls)');
      await expect.poll(() => page.getByTestId('rules-group-local').textContent(), POLL).toMatch(/did you mean Bash\?/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'rules-live-validation.png') });
      expect(problems).toEqual([]);
    });

    it('the audit log filters by decision and who answered, searches, and exports what is shown with secrets redacted', async () => {
      fake.enqueue(
        reply(toolUse('toolu_a1', 'read_file', { path: 'notes.txt' })),
        reply(
          toolUse('toolu_a2', 'run_command', {
            command: `curl -H "Authorization: token ${SECRET}" https://api.github.com/user`,
          }),
        ),
        reply(text('Done.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Read the notes, then ask GitHub who I am');
      await box.press('Enter');
      // The run took every scripted answer, then ended (the indicator alone is also absent before the run starts).
      await expect.poll(() => fake.pending(), POLL).toBe(0);
      await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);

      await openView(page, 'Audit log');
      const count = page.getByTestId('audit-count');
      await expect.poll(() => count.textContent(), POLL).toBe('2 of 2 decisions');
      const table = page.locator('.audit-table');
      expect(await table.textContent()).not.toContain(SECRET);
      expect(await table.textContent()).toContain('[REDACTED]');

      const f = auditFilters(page);
      await f.decision.selectOption('deny');
      await expect.poll(() => count.textContent(), POLL).toBe('1 of 2 decisions');
      expect(await auditRows(page).first().textContent()).toContain('Bash(curl:*)');
      await f.decision.selectOption('all');
      await f.query.fill('notes.txt');
      await expect.poll(() => count.textContent(), POLL).toBe('1 of 2 decisions');
      expect(await auditRows(page).first().textContent()).toContain('read_file');
      await f.query.fill('');
      await f.who.selectOption('you');
      await expect.poll(() => count.textContent(), POLL).toBe('0 of 2 decisions');
      expect(await page.getByRole('button', { name: 'Export shown…' }).isDisabled()).toBe(true);
      await f.who.selectOption('engine');
      await expect.poll(() => count.textContent(), POLL).toBe('2 of 2 decisions');

      // Export what is shown (the denied call): a JSON-lines file, redacted, home as ~.
      await f.decision.selectOption('deny');
      await expect.poll(() => count.textContent(), POLL).toBe('1 of 2 decisions');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export shown…' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^gatehouse-audit-.+\.jsonl$/);
      // Saved from the browser to a folder of ours (a download's own path exists only beside the browser's process).
      const saved = makeTempDir('gh-e2e-audit-export-');
      const file = path.join(saved, download.suggestedFilename());
      await download.saveAs(file);
      const exported = fs.readFileSync(file, 'utf8');
      removeTempDir(saved);
      const lines = exported.trim().split('\n');
      expect(lines).toHaveLength(1);
      const record = JSON.parse(lines[0] ?? '{}') as { tool: string; decision: string; input: { command?: string } };
      expect(record).toMatchObject({ tool: 'run_command', decision: 'deny' });
      expect(record.input.command).toContain('curl -H');
      expect(record.input.command).toContain('[REDACTED]');
      expect(exported).not.toContain(SECRET);
      expect(exported).not.toContain(app.home);
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Exported' }).textContent(), POLL)
        .toMatch(/^Exported 1 decision as gatehouse-audit-.+\.jsonl \(secrets redacted/);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-filtered.png') });
      expect(problems).toEqual([]);
    });
  },
);
