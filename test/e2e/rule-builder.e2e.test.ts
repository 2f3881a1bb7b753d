import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp, waitUntilAnswerable } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { openView, seriousViolations, setTheme, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-rule-builder';

// Rules built by pointing (issue 45): a recent command's words as chips, a file in the project's tree, the replay of
// the recent calls, "Make a rule" from an audit row and a tool card. No rule syntax is typed anywhere here.

const builder = (page: Page): Locator => page.getByTestId('rule-builder');
const ruleText = (page: Page): Promise<string | null> => builder(page).getByTestId('builder-rule').textContent();

/** Sends a prompt and answers the one approval it raises with `answer`, then waits until the run ended. */
async function runAndAnswer(page: Page, fake: FakeAnthropic, prompt: string, answer: 'Deny' | null): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(prompt);
  await box.press('Enter');
  if (answer) {
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible' });
    await waitUntilAnswerable(dialog);
    await dialog.getByRole('button', { name: answer, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  await expect.poll(() => fake.pending(), POLL).toBe(0);
  await expect.poll(() => page.getByTestId('chat-working').count(), POLL).toBe(0);
}

describe.skipIf(skipReason !== null)(
  `the rule builder in Chromium${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    let fake: FakeAnthropic;
    let localFile: string;
    useChatApp(
      {
        name: 'rule-builder',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        prepare: (project) => {
          for (const f of ['src/greet.js', 'src/util.js', 'docs/guide.md'])
            fs.mkdirSync(path.dirname(path.join(project, f)), { recursive: true });
          fs.writeFileSync(path.join(project, 'src/greet.js'), 'export const greet = () => "hi";\n');
          fs.writeFileSync(path.join(project, 'src/util.js'), 'export const one = 1;\n');
          fs.writeFileSync(path.join(project, 'docs/guide.md'), '# Guide\n');
        },
      },
      (started) => {
        app = started;
        fake = started.model;
        localFile = path.join(started.project, '.gatehouse/settings.local.yaml');
      },
    );

    /** `gatehouse permissions check` as its own process, against the server's settings. */
    function cliCheck(call: unknown): { decision: string; source: string; rule: string | null } {
      const out = execFileSync(
        process.execPath,
        [CLI_PATH, 'permissions', 'check', '--project', app.project, '--call', JSON.stringify(call)],
        { env: { ...process.env, GATEHOUSE_HOME: app.home, HOME: app.home }, encoding: 'utf8' },
      );
      return JSON.parse(out.trim().split('\n').pop() ?? '{}');
    }

    it('a command’s words as chips -> Bash(npm run lint:*) in settings.local.yaml; the replay shows the denied call; the next run is allowed', async () => {
      fake.enqueue(
        reply(toolUse('toolu_l1', 'run_command', { command: 'npm run lint --fix' })),
        reply(text('Denied.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await runAndAnswer(page, fake, 'Lint the code', 'Deny');

      await openView(page, 'Rules');
      const b = builder(page);
      await b.waitFor();
      // Defaults: a command, allow, this machine.
      expect(await b.getByRole('radio', { name: 'A command' }).isChecked()).toBe(true);
      expect(await b.getByRole('radio', { name: 'Allow' }).isChecked()).toBe(true);
      const local = b.getByRole('radio', { name: 'This machine (local)' });
      expect(await local.isChecked()).toBe(true);
      expect(await local.getAttribute('aria-describedby')).toBeTruthy();
      expect(await b.getByTestId('builder-scope').textContent()).toContain('not committed');
      // The recent command is offered, and chosen.
      const recent = b.getByTestId('builder-commands').getByRole('radio', { name: 'npm run lint --fix' });
      await expect.poll(() => recent.isChecked(), POLL).toBe(true);

      // Its words as chips: all four and "exactly", then three and "anything after".
      const chips = b.getByRole('group', { name: 'Words the rule names: choose the last one' });
      await expect
        .poll(() => chips.getByRole('button').allTextContents(), POLL)
        .toEqual(['npm', 'run', 'lint', '--fix']);
      await chips.getByRole('button', { name: '--fix' }).click();
      await b.getByRole('radio', { name: 'Exactly npm run lint --fix' }).check();
      await expect.poll(() => ruleText(page), POLL).toBe('Bash(npm run lint --fix)');
      await chips.getByRole('button', { name: 'lint', exact: true }).click();
      expect(await chips.getByRole('button', { name: 'lint', exact: true }).getAttribute('aria-pressed')).toBe('true');
      expect(await chips.getByRole('button', { name: '--fix' }).getAttribute('aria-pressed')).toBe('false');
      await expect.poll(() => ruleText(page), POLL).toBe('Bash(npm run lint)');
      await b.getByRole('radio', { name: 'npm run lint and anything after it' }).check();
      await expect.poll(() => ruleText(page), POLL).toBe('Bash(npm run lint:*)');
      // Validated by main as the text form is, and where it goes.
      await expect
        .poll(() => b.getByTestId('builder-validation').textContent(), POLL)
        .toBe(`Valid rule; it will be written to ${localFile}`);

      // The replay: the call the person denied would now be allowed without asking.
      const summary = b.getByTestId('builder-replay-summary');
      await expect.poll(() => summary.textContent(), POLL).toBe('1 of the last 1 calls would be decided differently:');
      const row = b.getByTestId('builder-replay-row');
      expect(await row.textContent()).toContain('npm run lint --fix');
      expect(await row.textContent()).toMatch(/ask.*would become.*allow/);
      expect(await row.textContent()).toContain('last time: you denied it');
      // The decision counts in the replay: as a deny rule the same call would be denied.
      await b.getByRole('radio', { name: 'Deny' }).check();
      await expect.poll(() => row.textContent(), POLL).toMatch(/ask.*would become.*deny/);
      await b.getByRole('radio', { name: 'Allow' }).check();
      await expect.poll(() => row.textContent(), POLL).toMatch(/ask.*would become.*allow/);

      expect(fs.existsSync(localFile)).toBe(false);
      await b.getByRole('button', { name: 'Save rule' }).click();
      await expect
        .poll(() => b.getByTestId('builder-status').textContent(), POLL)
        .toBe(`Saved: allow Bash(npm run lint:*) in ${localFile}`);
      expect(fs.readFileSync(localFile, 'utf8')).toMatch(/allow:\s*\n\s*- Bash\(npm run lint:\*\)/);
      await page.getByTestId('rules-group-local').getByText('Bash(npm run lint:*)').waitFor();
      // Judged again against the settings as they now are: the rule is there, so it changes nothing more.
      await expect
        .poll(() => summary.textContent(), POLL)
        .toBe('None of the last 1 calls would be decided differently.');
      await b.screenshot({ path: path.join(SCREENSHOTS, 'rule-builder-command.png') });

      // The next decision: `npm run lint` runs without a dialog, allowed by the new local rule.
      fake.enqueue(reply(toolUse('toolu_l2', 'run_command', { command: 'npm run lint' })), reply(text('Linted.')));
      await openView(page, 'Chat');
      await runAndAnswer(page, fake, 'Lint again', null);
      const badge = page.getByRole('log', { name: 'Conversation' }).getByTestId('decision-badge').last();
      expect(await badge.textContent()).toBe('allowed by rule Bash(npm run lint:*) from local');
      expect(problems).toEqual([]);
    });

    it('a file chosen in the tree by keyboard -> Edit(src/**) matching 2 files, saved locally; the CLI’s next decision changes; axe clean; fits 720 px', async () => {
      fake.enqueue(
        reply(toolUse('toolu_w1', 'write_file', { path: 'src/new.js', content: 'export {};\n' })),
        reply(text('Denied.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await runAndAnswer(page, fake, 'Add a module', 'Deny');
      const call = { tool: 'write_file', input: { path: 'src/new.js', content: 'x' } };
      expect(cliCheck(call).decision).toBe('ask');

      await openView(page, 'Rules');
      const b = builder(page);
      await b.getByRole('radio', { name: 'Editing or writing files' }).check();
      const tree = b.getByRole('tree', { name: 'Project files' });
      const src = tree.getByRole('treeitem', { name: 'src/' });
      await src.waitFor();
      // Keyboard only: open src, go down to its first file, choose it.
      await src.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => src.getAttribute('aria-expanded'), POLL).toBe('true');
      await tree.getByRole('treeitem', { name: 'greet.js' }).waitFor();
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''), POLL)
        .toContain('greet.js');
      await page.keyboard.press('Enter');
      expect(await tree.getByRole('treeitem', { name: 'greet.js' }).getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => ruleText(page), POLL).toBe('Edit(./src/greet.js)');
      const count = b.getByTestId('builder-count');
      await expect.poll(() => count.textContent(), POLL).toBe('Matches 1 file now');
      await b.getByRole('radio', { name: 'This folder and everything below it' }).check();
      await expect.poll(() => ruleText(page), POLL).toBe('Edit(src/**)');
      await expect.poll(() => count.textContent(), POLL).toBe('Matches 2 files now');
      await b.getByRole('radio', { name: 'Files like this (*.js)' }).check();
      await expect.poll(() => ruleText(page), POLL).toBe('Edit(src/**/*.js)');
      await b.getByRole('radio', { name: 'This folder and everything below it' }).check();
      await expect.poll(() => ruleText(page), POLL).toBe('Edit(src/**)');

      // The replay names the write the person denied.
      const rows = b.getByTestId('builder-replay-row');
      await expect.poll(() => rows.allTextContents(), POLL).toEqual([expect.stringContaining('src/new.js')]);
      expect(await rows.first().textContent()).toMatch(/write_file.*ask.*would become.*allow/);

      // axe on the builder with the tree open and the replay shown, in both themes.
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        expect(await seriousViolations(page), theme).toEqual([]);
      }
      await b.screenshot({ path: path.join(SCREENSHOTS, 'rule-builder-tree.png') });
      // A narrow window: the builder reflows, nothing in it scrolls sideways.
      await page.setViewportSize({ width: 720, height: 800 });
      const overflow = await b.evaluate((el) => {
        const wide = [el, ...el.querySelectorAll('*:not(.visually-hidden)')].filter(
          (e) => e.scrollWidth > e.clientWidth + 1,
        );
        return wide.filter((e) => getComputedStyle(e).overflowX !== 'visible').map((e) => e.className);
      });
      expect(overflow).toEqual([]);
      expect(await b.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await page.setViewportSize(SIZES[0]);

      await b.getByRole('button', { name: 'Save rule' }).click();
      await expect
        .poll(() => b.getByTestId('builder-status').textContent(), POLL)
        .toContain('Saved: allow Edit(src/**)');
      expect(fs.readFileSync(localFile, 'utf8')).toContain('Edit(src/**)');
      expect(fs.existsSync(path.join(app.project, '.gatehouse/settings.yaml'))).toBe(false);
      expect(cliCheck(call)).toMatchObject({ decision: 'allow', source: 'local', rule: 'Edit(src/**)' });
      expect(problems).toEqual([]);
    });

    it('"Make a rule" on an audit row and on a tool card pre-fills the builder', async () => {
      fake.enqueue(
        reply(toolUse('toolu_m1', 'write_file', { path: 'docs/notes.md', content: '# Notes\n' })),
        reply(text('Denied.')),
      );
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await runAndAnswer(page, fake, 'Write notes', 'Deny');

      // From the tool card: an edit of a file not there yet, shown in its folder.
      const card = page.getByRole('log', { name: 'Conversation' }).getByTestId('tool-card').last();
      await card.getByRole('button', { name: 'Make a rule from write_file docs/notes.md' }).click();
      const b = builder(page);
      await expect.poll(() => b.getByRole('radio', { name: 'Editing or writing files' }).isChecked(), POLL).toBe(true);
      await expect.poll(() => ruleText(page), POLL).toBe('Edit(./docs/notes.md)');
      expect(await b.getByRole('tree').getByRole('treeitem', { name: 'docs/' }).getAttribute('aria-expanded')).toBe(
        'true',
      );
      // The builder's heading has the focus: the person lands where the rule is made.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''), POLL).toBe('Make a rule');

      // From an audit row: the first command, its chips ready.
      await openView(page, 'Audit log');
      const make = page.getByRole('button', { name: 'Make a rule from run_command npm run lint --fix' }).first();
      await make.click();
      await expect.poll(() => b.getByRole('radio', { name: 'A command' }).isChecked(), POLL).toBe(true);
      const chosen = b.getByTestId('builder-commands').getByRole('radio', { name: 'npm run lint --fix' });
      await expect.poll(() => chosen.isChecked(), POLL).toBe(true);
      await expect.poll(() => ruleText(page), POLL).toBe('Bash(npm run lint:*)');
      // That rule is already saved: saving again says so and changes nothing.
      await b.getByRole('button', { name: 'Save rule' }).click();
      await expect
        .poll(() => b.getByTestId('builder-status').textContent(), POLL)
        .toBe(`allow Bash(npm run lint:*) is already in ${localFile}`);
      expect(problems).toEqual([]);
    });
  },
);
