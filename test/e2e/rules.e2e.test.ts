import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { ContextPool, pooledPage } from './support/context-pool';
import { CLI_PATH, makeTempDir, REPO_ROOT, removeTempDir, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
const SCREENSHOTS = path.join(REPO_ROOT, 'test-results/e2e');

/** `gatehouse permissions check` run as a separate process against the server's config dir. */
function cliCheck(
  web: RunningWeb,
  project: string,
  call: unknown,
): { decision: string; source: string; rule: string | null } {
  const out = execFileSync(
    process.execPath,
    [CLI_PATH, 'permissions', 'check', '--project', project, '--call', JSON.stringify(call)],
    {
      env: { ...process.env, GATEHOUSE_HOME: web.home, HOME: web.home },
      encoding: 'utf8',
    },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

async function simulate(
  page: Page,
  tool: string,
  text: string,
): Promise<{ decision: string; source: string; rule: string | null }> {
  await page.getByRole('combobox', { name: 'Tool' }).selectOption(tool);
  await page.getByRole('textbox', { name: 'Command or path' }).fill(text);
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  // The previous result is cleared on submit: what appears now is this call's answer.
  await page.getByTestId('simulator-result').waitFor();
  const rule = (await page.getByTestId('simulator-rule').textContent()) ?? '';
  return {
    decision: (await page.getByTestId('simulator-decision').textContent()) ?? '',
    source: (await page.getByTestId('simulator-source').textContent()) ?? '',
    rule: rule === '—' ? null : rule,
  };
}

async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.innerText.trim() : '',
  );
}

describe.skipIf(skipReason !== null)(
  `rules editor in Chromium through the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let web: RunningWeb;
    let browser: Browser;
    // A context and page kept from one test to the next (reset in between): see ContextPool.
    const pool = new ContextPool(() => browser);
    const PAGE_OPTIONS = { viewport: { width: 1200, height: 1000 } };
    let project: string;
    let home: string;
    let projectFile: string;

    beforeAll(async () => {
      requireBuiltApp();
      project = makeTempDir('gh-e2e-rules-');
      home = makeTempDir('gh-e2e-rules-home-');
      fs.writeFileSync(path.join(home, 'settings.yaml'), 'trust:\n  default: trust\n');
      projectFile = path.join(project, '.gatehouse/settings.yaml');
      fs.mkdirSync(path.dirname(projectFile));
      fs.writeFileSync(projectFile, '# team rules\npermissions:\n  deny: ["Read(.env)"]\n');
      fs.mkdirSync(path.join(project, '.claude'));
      fs.writeFileSync(
        path.join(project, '.claude/settings.json'),
        JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }),
      );
      web = await startWeb({ project, home });
      browser = await launchChromium();
    });

    afterEach(async () => {
      if (web) await pool.recycle(web.origin);
    });

    afterAll(async () => {
      await pool.closeAll();
      await browser?.close();
      await web?.stop();
      for (const dir of [project, home]) if (dir) removeTempDir(dir);
    });

    it('add -> YAML changes and the simulator agrees with the CLI; delete -> gone; a broken file shows its error', async () => {
      const page = await pooledPage(pool, PAGE_OPTIONS);
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      await page.goto(web.url);
      // Chat stays the default view.
      await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
      await page
        .getByRole('navigation', { name: 'Sidebar' })
        .getByRole('button', { name: 'Rules', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Rules', level: 2 }).waitFor();

      // Existing rules by scope; the Claude Code import is read only (no delete button).
      await page.getByTestId('rules-group-project').getByText('Read(.env)').waitFor();
      expect(await page.getByTestId('rules-group-claude').textContent()).toContain('read-only');
      expect(await page.getByRole('button', { name: 'Delete Bash(ls:*)' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Delete Read(.env)' }).count()).toBe(1);

      // Live validation: Add is disabled while the rule does not parse.
      const ruleBox = page.getByRole('textbox', { name: 'Rule', exact: true });
      const add = page.getByRole('button', { name: 'Add rule' });
      await ruleBox.fill('Bash(npm test');
      await expect.poll(() => page.getByTestId('rule-validation').textContent()).toMatch(/^Invalid rule: /);
      expect(await add.isDisabled()).toBe(true);

      const before = cliCheck(web, project, { tool: 'run_command', input: { command: 'npm test' } });
      expect(before.rule).toBeNull();
      await ruleBox.fill('Bash(npm test)');
      await page.getByRole('combobox', { name: 'Behavior', exact: true }).selectOption('allow');
      await page.getByRole('combobox', { name: 'Scope', exact: true }).selectOption('project');
      await expect.poll(() => add.isDisabled()).toBe(false);
      await add.click();
      await page.getByRole('button', { name: 'Delete Bash(npm test)' }).waitFor();
      expect(fs.readFileSync(projectFile, 'utf8')).toMatch(/# team rules[\s\S]*allow:[\s\S]*Bash\(npm test\)/);

      // The simulator and the CLI give the same decision for the same call.
      const call = { tool: 'run_command', input: { command: 'npm test' } };
      const fromCli = cliCheck(web, project, call);
      expect(fromCli).toMatchObject({ decision: 'allow', source: 'project', rule: 'Bash(npm test)' });
      expect(await simulate(page, 'run_command', 'npm test')).toEqual({
        decision: fromCli.decision,
        source: fromCli.source,
        rule: fromCli.rule,
      });
      const envCall = cliCheck(web, project, { tool: 'read_file', input: { path: '.env' } });
      expect(envCall.decision).toBe('deny');
      expect(await simulate(page, 'read_file', '.env')).toEqual({
        decision: envCall.decision,
        source: envCall.source,
        rule: envCall.rule,
      });
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'rules.png'), fullPage: true });

      // Delete (keyboard) asks first: Escape keeps the rule; "Delete rule" removes it from the file.
      const del = page.getByRole('button', { name: 'Delete Bash(npm test)' });
      await del.focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('dialog', { name: 'Delete this allow rule?' });
      await confirm.waitFor();
      await expect.poll(() => focusedText(page)).toBe('Cancel');
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(fs.readFileSync(projectFile, 'utf8')).toContain('Bash(npm test)');
      await del.click();
      await confirm.getByRole('button', { name: 'Delete rule', exact: true }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Delete Bash(npm test)' }).count()).toBe(0);
      expect(fs.readFileSync(projectFile, 'utf8')).not.toContain('Bash(npm test)');
      expect(cliCheck(web, project, call).rule).toBeNull();

      // A malformed settings file is shown with its error.
      fs.writeFileSync(projectFile, 'permissions:\n  allow: [unclosed\n');
      await page.getByRole('button', { name: 'Refresh' }).click();
      const errors = page.getByRole('alert', { name: 'Settings files that failed to load' });
      await errors.waitFor();
      expect(await errors.textContent()).toContain(projectFile);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'rules-file-error.png'), fullPage: true });
      expect(problems).toEqual([]);
    }, 90_000);

    it('edit and move a rule, a scope’s default mode, additional directories -> YAML on disk changes and the simulator agrees with the CLI', async () => {
      fs.writeFileSync(projectFile, '# team rules\npermissions:\n  deny: ["Read(.env)"] # never the env file\n');
      const localFile = path.join(project, '.gatehouse/settings.local.yaml');
      const page = await pooledPage(pool, PAGE_OPTIONS);
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      await page.goto(web.url);
      await page.getByRole('button', { name: 'Rules', exact: true }).click();
      await page.getByTestId('rules-group-project').getByText('Read(.env)').waitFor();

      // Policy and Claude Code imports stay read only: no Edit button.
      expect(await page.getByRole('button', { name: 'Edit Bash(ls:*)' }).count()).toBe(0);
      // Escape cancels an edit: nothing is written and focus is back on the row's Edit button.
      const projectBefore = fs.readFileSync(projectFile, 'utf8');
      await page.getByRole('button', { name: 'Edit Read(.env)' }).click();
      await page.getByRole('textbox', { name: 'Edit rule text' }).fill('Read(other)');
      await page.keyboard.press('Escape');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Edit Read(.env)');
      expect(fs.readFileSync(projectFile, 'utf8')).toBe(projectBefore);
      // Edit in place (keyboard): live validation, then a new text and behaviour; the file's comment stays.
      await page.getByRole('button', { name: 'Edit Read(.env)' }).focus();
      await page.keyboard.press('Enter');
      const form = page.getByRole('form', { name: 'Edit Read(.env)' });
      const text = form.getByRole('textbox', { name: 'Edit rule text' });
      expect(await text.evaluate((el) => el === document.activeElement)).toBe(true);
      await text.fill('Read(secrets/**');
      await expect.poll(() => form.getByTestId('edit-rule-validation').textContent()).toMatch(/^Invalid rule: /);
      expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      await text.fill('Read(secrets/**)');
      await form.getByRole('combobox', { name: 'Edit behavior' }).selectOption('ask');
      await expect.poll(() => form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
      await text.press('Enter');
      await page.getByRole('button', { name: 'Edit Read(secrets/**)' }).waitFor();
      const edited = fs.readFileSync(projectFile, 'utf8');
      expect(edited).toContain('# team rules');
      expect(edited).toMatch(/ask:[\s\S]*Read\(secrets\/\*\*\)/);
      expect(edited).not.toContain('Read(.env)');
      const secretCall = { tool: 'read_file', input: { path: 'secrets/key.txt' } };
      expect(cliCheck(web, project, secretCall)).toMatchObject({
        decision: 'ask',
        source: 'project',
        rule: 'Read(secrets/**)',
      });
      expect(await simulate(page, 'read_file', 'secrets/key.txt')).toEqual({
        decision: 'ask',
        source: 'project',
        rule: 'Read(secrets/**)',
      });

      // Move to the local scope: it leaves the project file and lands in the local one.
      await page.getByRole('button', { name: 'Edit Read(secrets/**)' }).click();
      const moveForm = page.getByRole('form', { name: 'Edit Read(secrets/**)' });
      await moveForm.getByRole('combobox', { name: 'Edit scope' }).selectOption('local');
      await expect
        .poll(() => moveForm.getByTestId('edit-rule-validation').textContent())
        .toContain(`moves from ${projectFile} to ${localFile}`);
      await moveForm.getByRole('button', { name: 'Save' }).click();
      await page.getByTestId('rules-group-local').getByText('Read(secrets/**)').waitFor();
      expect(fs.readFileSync(projectFile, 'utf8')).not.toContain('Read(secrets/**)');
      expect(fs.readFileSync(projectFile, 'utf8')).toContain('# team rules');
      expect(fs.readFileSync(localFile, 'utf8')).toContain('Read(secrets/**)');
      const fromCli = cliCheck(web, project, secretCall);
      expect(fromCli).toMatchObject({ decision: 'ask', source: 'local', rule: 'Read(secrets/**)' });
      expect(await simulate(page, 'read_file', 'secrets/key.txt')).toEqual({
        decision: fromCli.decision,
        source: fromCli.source,
        rule: fromCli.rule,
      });

      // Additional directories: a missing one is refused with its path; an existing one widens what file tools reach.
      const shared = makeTempDir('gh-e2e-rules-shared-');
      try {
        fs.writeFileSync(path.join(shared, 'lib.ts'), 'export {};\n');
        const outside = { tool: 'read_file', input: { path: path.join(shared, 'lib.ts') } };
        expect(cliCheck(web, project, outside)).toMatchObject({ decision: 'deny', source: 'hard' });
        const dirBox = page.getByRole('textbox', { name: 'Directory', exact: true });
        await dirBox.fill(path.join(shared, 'missing'));
        await page.getByRole('combobox', { name: 'Directory scope' }).selectOption('local');
        await page.getByRole('button', { name: 'Add directory' }).click();
        await expect
          .poll(() => page.getByTestId('directory-status').textContent())
          .toContain(`does not exist (looked for ${path.join(shared, 'missing')})`);
        await dirBox.fill(shared);
        await page.getByRole('button', { name: 'Add directory' }).click();
        await page.getByRole('button', { name: `Remove directory ${shared} from local` }).waitFor();
        expect(fs.readFileSync(localFile, 'utf8')).toMatch(/additionalDirectories:[\s\S]*gh-e2e-rules-shared-/);
        const widened = cliCheck(web, project, outside);
        expect(widened.decision).toBe('allow');
        expect(await simulate(page, 'read_file', path.join(shared, 'lib.ts'))).toEqual({
          decision: widened.decision,
          source: widened.source,
          rule: widened.rule,
        });

        // The project's default mode: acceptEdits lets a write through; bypass for the user file needs a confirmation.
        const writeCall = { tool: 'write_file', input: { path: 'notes.txt', content: '' } };
        expect(cliCheck(web, project, writeCall).decision).toBe('ask');
        await page.getByRole('combobox', { name: 'Project default mode' }).selectOption('acceptEdits');
        await expect.poll(() => page.getByTestId('rules-mode-in-force').textContent()).toContain('acceptEdits');
        expect(fs.readFileSync(projectFile, 'utf8')).toMatch(/# team rules[\s\S]*mode: acceptEdits/);
        expect(cliCheck(web, project, writeCall)).toMatchObject({ decision: 'allow', source: 'mode' });
        expect(await simulate(page, 'write_file', 'notes.txt')).toMatchObject({ decision: 'allow', source: 'mode' });
        const userFile = path.join(home, 'settings.yaml');
        const userBefore = fs.readFileSync(userFile, 'utf8');
        await page.getByRole('combobox', { name: 'User default mode' }).selectOption('bypassPermissions');
        const confirm = page.getByRole('dialog', { name: 'Turn on bypass mode?' });
        await confirm.waitFor();
        expect(await confirm.textContent()).toContain(userFile);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'rules-bypass-confirm.png') });
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'detached' });
        expect(fs.readFileSync(userFile, 'utf8')).toBe(userBefore);
        expect(await page.getByRole('combobox', { name: 'User default mode' }).inputValue()).toBe('');
        await page.screenshot({ path: path.join(SCREENSHOTS, 'rules-edit-move.png'), fullPage: true });

        await page.getByRole('button', { name: `Remove directory ${shared} from local` }).click();
        await expect
          .poll(() => page.getByRole('button', { name: `Remove directory ${shared} from local` }).count())
          .toBe(0);
        expect(fs.readFileSync(localFile, 'utf8')).not.toContain(shared);
      } finally {
        removeTempDir(shared);
      }
      expect(problems).toEqual([]);
    }, 90_000);
  },
);
