import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium } from './support/browser';
import { ContextPool, pooledPage } from './support/context-pool';
import { CLI_PATH, makeTempDir, REPO_ROOT, removeTempDir, requireBuiltApp, startWeb } from './support/start-web';
import type { RunningWeb } from './support/start-web';
import { seriousViolations } from './support/ui';

const skipReason = chromiumSkipReason();
const SCREENSHOTS = path.join(REPO_ROOT, 'test-results/e2e');

/** `gatehouse trust status DIR --json` run as a separate process against the server's config dir. */
function cliStatus(web: RunningWeb, dir: string): { trusted: boolean; decision: string; storedAt: string | null } {
  const out = execFileSync(process.execPath, [CLI_PATH, 'trust', 'status', dir, '--json'], {
    env: { ...process.env, GATEHOUSE_HOME: web.home, HOME: web.home },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

async function focusedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.innerText.trim() : '',
  );
}

describe.skipIf(skipReason !== null)(
  `project trust in Chromium through the browser shell${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let web: RunningWeb;
    let browser: Browser;
    // A context and page kept from one test to the next (reset in between): see ContextPool.
    const pool = new ContextPool(() => browser);
    const PAGE_OPTIONS = { viewport: { width: 1100, height: 800 } };
    let project: string;

    beforeAll(async () => {
      requireBuiltApp();
      project = makeTempDir('gh-e2e-trust-');
      fs.mkdirSync(path.join(project, '.gatehouse'));
      fs.writeFileSync(
        path.join(project, '.gatehouse/settings.yaml'),
        'permissions:\n  allow: ["Bash(npm test)"]\n  deny: ["Read(.env)"]\n',
      );
      fs.writeFileSync(path.join(project, 'AGENTS.md'), '# Instructions for agents\n');
      fs.mkdirSync(path.join(project, '.claude/skills/deploy'), { recursive: true });
      fs.writeFileSync(
        path.join(project, '.claude/skills/deploy/SKILL.md'),
        '---\nname: deploy\ndescription: Ship the app\nallowed-tools: Bash\n---\nSteps\n',
      );
      fs.mkdirSync(path.join(project, '.claude/agents'), { recursive: true });
      fs.writeFileSync(
        path.join(project, '.claude/agents/helper.md'),
        '---\nname: helper\ndescription: Helps out\n---\nHelp.\n',
      );
      // Claude Code's project file of MCP servers, and a settings.json: trust would load both.
      fs.writeFileSync(
        path.join(project, '.mcp.json'),
        JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', 'gh-mcp'] } } }),
      );
      fs.writeFileSync(
        path.join(project, '.gatehouse/settings.json'),
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } }),
      );
      web = await startWeb({ project });
      browser = await launchChromium();
    });

    afterEach(async () => {
      if (web) await pool.recycle(web.origin);
    });

    afterAll(async () => {
      await pool.closeAll();
      await browser?.close();
      await web?.stop();
      if (project) removeTempDir(project);
    });

    it('open folder -> dialog -> "Trust this folder" -> chip trusted -> revoke on the page -> chip untrusted', async () => {
      const page = await pooledPage(pool, PAGE_OPTIONS);
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console: ${msg.text()}`);
      });
      await page.goto(web.url);

      // An undecided folder (default ask): the modal prompt, naming the folder and what it would load.
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      expect(await dialog.getAttribute('aria-modal')).toBe('true');
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'trust-dialog.png') });
      await expect
        .poll(() => dialog.getByRole('heading', { level: 2 }).first().textContent())
        .toMatch(/trust this folder/i);
      expect(await dialog.getByTestId('trust-dialog-path').textContent()).toBe(project);
      const dialogText = (await dialog.textContent()) ?? '';
      expect(dialogText).toContain('Bash(npm test)');
      expect(dialogText).toContain(path.join(project, 'AGENTS.md'));
      expect(dialogText).not.toContain('Read(.env)'); // deny rules always load: not part of what trust unlocks
      // The project's skills and sub-agents: what the model would be offered.
      const skills = dialog.getByRole('region', { name: 'Skills' });
      expect(await skills.getByRole('heading').textContent()).toContain('1 skill');
      expect(await skills.getByTestId('trust-skills').textContent()).toBe(
        `deploy: Ship the app from ${path.join(project, '.claude/skills/deploy/SKILL.md')}`,
      );
      const agents = dialog.getByRole('region', { name: 'Sub-agents' });
      expect(await agents.getByTestId('trust-agents').textContent()).toBe(
        `helper: Helps out from ${path.join(project, '.claude/agents/helper.md')}`,
      );
      // Every switch counts what its list shows, from one count: "Instructions" is the instruction file, the skill
      // and the sub-agent; the .mcp.json server is listed under "MCP servers".
      const expected = {
        rules: '1 allow-rule',
        hooks: '1 hook',
        instructions: '1 instruction file, 1 skill and 1 sub-agent',
        mcp: '1 MCP server',
      };
      for (const [key, words] of Object.entries(expected)) {
        expect(await dialog.getByTestId(`trust-extension-${key}`).textContent()).toContain(
          `(${words} in this project)`,
        );
        expect(
          await dialog.getByTestId(`trust-preview-${key}`).getByRole('heading', { level: 4 }).textContent(),
        ).toMatch(new RegExp(`: ${words.replace(/[()]/g, '\\$&')}$`));
      }
      expect(await dialog.getByTestId('trust-mcp-server').textContent()).toBe(
        `github: npx -y gh-mcp from ${path.join(project, '.mcp.json')}`,
      );
      expect(dialogText).toContain('echo done');
      expect(await seriousViolations(page, 'dialog')).toEqual([]);
      for (const name of ['Trust this session', 'Trust this folder', 'Not now', 'Never trust this folder']) {
        expect(await dialog.getByRole('button', { name, exact: true }).count()).toBe(1);
      }
      // Named by what it shows (axe: label-content-name-mismatch), the folder included.
      const parentButton = dialog.getByRole('button', {
        name: `Trust parent folder ${path.dirname(project)}`,
        exact: true,
      });
      expect(await parentButton.textContent()).toContain(path.dirname(project));
      // Visibly secondary: a link-styled answer apart from the row of the usual ones, after them in the tab order.
      expect(
        await parentButton.evaluate((b) => b.classList.contains('link') && !b.closest('.trust-dialog-actions')),
      ).toBe(true);
      // Until answered the project is untrusted.
      expect(await page.getByRole('button', { name: 'Project trust: untrusted' }).count()).toBe(1);
      expect(cliStatus(web, project)).toMatchObject({ trusted: false, decision: 'default' });

      // Focus starts on the safe answer and stays inside the dialog.
      await expect.poll(() => focusedText(page)).toBe('Not now');
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
      }
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);

      await dialog.getByRole('button', { name: 'Trust this folder', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      const trustedChip = page.getByRole('button', { name: 'Project trust: trusted' });
      await trustedChip.waitFor();
      expect(await trustedChip.textContent()).toBe('Trusted');
      // Stored for real: another process (the CLI) sees it.
      expect(cliStatus(web, project)).toMatchObject({ trusted: true, decision: 'directory', storedAt: project });

      // The Trusted folders page: search, then revoke (after a confirmation).
      await page
        .getByRole('navigation', { name: 'Sidebar' })
        .getByRole('button', { name: 'Trusted folders', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Trusted folders' }).waitFor();
      expect(await page.getByRole('columnheader', { name: 'Decision' }).count()).toBe(1);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'trust-trusted.png'), fullPage: true });
      const search = page.getByRole('searchbox', { name: 'Search folders' });
      await search.fill('no-such-folder-anywhere');
      await expect.poll(() => page.getByRole('button', { name: `Revoke ${project}` }).count()).toBe(0);
      await search.fill(path.basename(project));
      const revoke = page.getByRole('button', { name: `Revoke ${project}` });
      await revoke.waitFor();
      await revoke.click();
      const confirm = page.getByRole('dialog', { name: 'Revoke trust for this folder?' });
      await expect.poll(() => focusedText(page)).toBe('Cancel');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'trust-revoke-confirm.png') });
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      const untrustedChip = page.getByRole('button', { name: 'Project trust: untrusted' });
      await untrustedChip.waitFor();
      await expect.poll(() => page.getByRole('button', { name: `Revoke ${project}` }).count()).toBe(0);
      expect(cliStatus(web, project)).toMatchObject({ trusted: false, decision: 'default' });

      // The chip opens the choice again; Escape answers "Not now": untrusted, and nothing is stored.
      await untrustedChip.click();
      await dialog.waitFor({ state: 'visible' });
      await expect.poll(() => focusedText(page)).toBe('Not now');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Project trust: untrusted' }).count()).toBe(1);
      expect(cliStatus(web, project)).toMatchObject({ trusted: false, decision: 'default' });
      // A new page asks again (nothing was stored); "Never trust this folder" is stored as never.
      const again = await page.context().newPage();
      await again.goto(web.url);
      const asked = again.getByRole('dialog');
      await asked.waitFor({ state: 'visible', timeout: 15_000 });
      await asked.getByRole('button', { name: 'Never trust this folder', exact: true }).click();
      await asked.waitFor({ state: 'detached' });
      await expect.poll(() => cliStatus(web, project).decision).toBe('never');
      await again.close();
      expect(problems).toEqual([]);
    }, 90_000);

    it('the Trusted folders page stays usable with hundreds of folders: search narrows, rows are paged', async () => {
      const many = Array.from({ length: 450 }, (_, i) => `/srv/repos/team-${String(i).padStart(3, '0')}/app`);
      const at = new Date('2026-01-02T03:04:05Z').toISOString();
      const entries = many.map((p, i) => ({
        path: p,
        scope: i % 5 === 0 ? 'never' : 'directory',
        grantedAt: at,
        lastOpened: null,
        grantedFrom: p,
      }));
      // Keep the open project's decision (never, from the test above) so no prompt covers the page.
      const existing = JSON.parse(fs.readFileSync(path.join(web.home, 'trust.json'), 'utf8')) as { entries: unknown[] };
      expect(existing.entries).toHaveLength(1);
      fs.writeFileSync(
        path.join(web.home, 'trust.json'),
        JSON.stringify({ version: 1, entries: [...existing.entries, ...entries] }),
      );
      const page = await pooledPage(pool, PAGE_OPTIONS);
      await page.goto(web.url);
      await page
        .getByRole('navigation', { name: 'Sidebar' })
        .getByRole('button', { name: 'Trusted folders', exact: true })
        .click({ timeout: 15_000 });
      await page.getByRole('heading', { name: 'Trusted folders' }).waitFor({ timeout: 15_000 });
      await expect.poll(() => page.getByText(/of 45\d folders/).textContent()).toBe('451 of 451 folders');
      expect(await page.getByRole('button', { name: /^Revoke / }).count()).toBe(200);
      expect(await page.getByRole('button', { name: /^Show 200 more/ }).count()).toBe(1);
      await page.getByRole('searchbox', { name: 'Search folders' }).fill('team-123/');
      await expect.poll(() => page.getByRole('button', { name: /^Revoke / }).count()).toBe(1);
      await page.getByRole('button', { name: 'Revoke /srv/repos/team-123/app' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
      await expect.poll(() => page.getByRole('button', { name: /^Revoke / }).count()).toBe(0);
      expect(await page.getByRole('dialog').count()).toBe(0);
      const stored = JSON.parse(fs.readFileSync(path.join(web.home, 'trust.json'), 'utf8')) as {
        entries: { path: string }[];
      };
      expect(stored.entries.map((e) => e.path)).not.toContain('/srv/repos/team-123/app');
      expect(stored.entries).toHaveLength(450);
    }, 60_000);

    it('revoking a folder under a parent grant asks what is meant: "Never trust this folder only" keeps the parent', async () => {
      const mono = fs.realpathSync(fs.mkdtempSync(path.join(web.home, 'mono-')));
      const app = path.join(mono, 'app');
      fs.mkdirSync(app);
      const at = new Date('2026-01-02T03:04:05Z').toISOString();
      const file = path.join(web.home, 'trust.json');
      const existing = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { entries: [] }) as {
        entries: unknown[];
      };
      fs.writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          entries: [
            ...existing.entries,
            { path: mono, scope: 'parent', grantedAt: at, lastOpened: null, grantedFrom: app },
            { path: app, scope: 'directory', grantedAt: at, lastOpened: null, grantedFrom: app },
          ],
        }),
      );
      const page = await pooledPage(pool, PAGE_OPTIONS);
      await page.goto(web.url);
      await page
        .getByRole('navigation', { name: 'Sidebar' })
        .getByRole('button', { name: 'Trusted folders', exact: true })
        .click({ timeout: 15_000 });
      await page.getByRole('searchbox', { name: 'Search folders' }).fill(path.basename(mono));
      await page.getByRole('button', { name: `Revoke ${app}` }).click();
      const ask = page.getByRole('dialog', { name: 'This folder is also trusted through a parent folder' });
      await ask.waitFor();
      expect(await ask.textContent()).toContain(`It is trusted through ${mono}`);
      await expect.poll(() => focusedText(page)).toBe('Cancel');
      await page.screenshot({ path: path.join(SCREENSHOTS, 'trust-revoke-under-parent.png') });
      await ask.getByRole('button', { name: 'Never trust this folder only', exact: true }).click();
      await ask.waitFor({ state: 'detached' });
      await expect.poll(() => cliStatus(web, app).decision).toBe('never');
      // The parent's grant is kept: another folder below it is still trusted.
      const other = path.join(mono, 'lib');
      fs.mkdirSync(other);
      expect(cliStatus(web, other)).toMatchObject({ trusted: true, decision: 'parent' });
    }, 60_000);
  },
);
