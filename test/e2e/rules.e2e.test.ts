import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { CLI_PATH, makeTempDir, REPO_ROOT, removeTempDir, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';

const skipReason = chromiumSkipReason();
const SCREENSHOTS = path.join(REPO_ROOT, 'test-results/e2e');

/** `gatehouse permissions check` run as a separate process against the server's config dir. */
function cliCheck(web: RunningWeb, project: string, call: unknown): { decision: string; source: string; rule: string | null } {
  const out = execFileSync(process.execPath, [CLI_PATH, 'permissions', 'check', '--project', project, '--call', JSON.stringify(call)], {
    env: { ...process.env, GATEHOUSE_HOME: web.home, HOME: web.home },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

async function simulate(page: Page, tool: string, text: string): Promise<{ decision: string; source: string; rule: string | null }> {
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

describe.skipIf(skipReason !== null)(`rules editor in Chromium through the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let web: RunningWeb;
  let browser: Browser;
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
    fs.writeFileSync(path.join(project, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
    web = await startWeb({ project, home });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    for (const dir of [project, home]) if (dir) removeTempDir(dir);
  });

  it('add -> YAML changes and the simulator agrees with the CLI; delete -> gone; a broken file shows its error', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 1000 } })).newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    await page.goto(web.url);
    // Chat stays the default view.
    await page.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Rules', exact: true }).click();
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
    await page.getByRole('combobox', { name: 'Behavior' }).selectOption('allow');
    await page.getByRole('combobox', { name: 'Scope' }).selectOption('project');
    await expect.poll(() => add.isDisabled()).toBe(false);
    await add.click();
    await page.getByRole('button', { name: 'Delete Bash(npm test)' }).waitFor();
    expect(fs.readFileSync(projectFile, 'utf8')).toMatch(/# team rules[\s\S]*allow:[\s\S]*Bash\(npm test\)/);

    // The simulator and the CLI give the same decision for the same call.
    const call = { tool: 'run_command', input: { command: 'npm test' } };
    const fromCli = cliCheck(web, project, call);
    expect(fromCli).toMatchObject({ decision: 'allow', source: 'project', rule: 'Bash(npm test)' });
    expect(await simulate(page, 'run_command', 'npm test')).toEqual({ decision: fromCli.decision, source: fromCli.source, rule: fromCli.rule });
    const envCall = cliCheck(web, project, { tool: 'read_file', input: { path: '.env' } });
    expect(envCall.decision).toBe('deny');
    expect(await simulate(page, 'read_file', '.env')).toEqual({ decision: envCall.decision, source: envCall.source, rule: envCall.rule });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'rules.png'), fullPage: true });

    // Delete (keyboard): the file no longer has it.
    const del = page.getByRole('button', { name: 'Delete Bash(npm test)' });
    await del.focus();
    await page.keyboard.press('Enter');
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
});
