import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { chromiumSkipReason } from './support/browser';
import { openChatPage, POLL, SCREENSHOTS, useChatApp } from './support/chat-app';
import type { ChatApp } from './support/chat-app';
import { CLI_PATH } from './support/start-web';
import { openView, seriousViolations, setTheme, SIZES } from './support/ui';

const skipReason = chromiumSkipReason();
const API_KEY = 'test-key-skills-page';

/** The built CLI against the server's home; its stdout, whatever its exit code (`skills list` fails on a broken file). */
function gatehouse(app: ChatApp<FakeAnthropic>, args: string[]): string {
  return spawnSync(process.execPath, [CLI_PATH, ...args], {
    env: { ...process.env, GATEHOUSE_HOME: app.home, HOME: app.home },
    encoding: 'utf8',
  }).stdout;
}

const row = (page: Page, kind: 'skill' | 'agent', name: string) =>
  page.locator(`[data-testid="${kind}-row"][data-name="${name}"]`);

// The Skills & sub-agents page in Chromium through the browser shell: yours and the project's, where each comes from,
// the tools it allows, and whether a run loads it; a project's load only once the project is trusted.
describe.skipIf(skipReason !== null)(
  `the Skills & sub-agents page${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  { timeout: 180_000 },
  () => {
    let app: ChatApp<FakeAnthropic>;
    useChatApp(
      {
        name: 'skills-page',
        startModel: () => startFakeAnthropic({ apiKey: API_KEY }),
        env: { ANTHROPIC_API_KEY: API_KEY },
        // Untrusted by default, without a prompt covering the page.
        settings: 'trust:\n  default: never\n',
        prepare: (project, home) => {
          const write = (file: string, text: string): void => {
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.writeFileSync(file, text);
          };
          write(
            path.join(home, 'skills', 'editor', 'SKILL.md'),
            '---\nname: editor\ndescription: Edit notes\nallowed-tools: Read, Write, Bash(git *)\n---\nEdit.\n',
          );
          write(path.join(home, 'skills', 'broken', 'SKILL.md'), '---\nname: Broken Name\ndescription: x\n---\n');
          write(
            path.join(home, 'agents', 'scribe.md'),
            '---\nname: scribe\ndescription: Writes notes\ntools: Write\nmodel: claude-haiku-4-5\n---\nWrite.\n',
          );
          write(
            path.join(project, '.claude', 'skills', 'deploy', 'SKILL.md'),
            '---\nname: deploy\ndescription: Ship the app\nallowed-tools: Bash\n---\nSteps\n',
          );
          write(
            path.join(project, '.gatehouse', 'agents', 'helper.md'),
            '---\nname: helper\ndescription: Helps out\n---\nHelp.\n',
          );
        },
      },
      (started) => {
        app = started;
      },
    );

    it("lists yours and the project's with source, file and allowed tools; the project's load once it is trusted", async () => {
      const { page, problems } = await openChatPage(await app.newContext({ viewport: SIZES[0] }), app.web.url);
      await openView(page, 'Skills & sub-agents');
      await row(page, 'skill', 'deploy').waitFor(POLL);

      const editor = row(page, 'skill', 'editor');
      expect(await editor.getAttribute('data-source')).toBe('user');
      expect(await editor.getAttribute('data-loaded')).toBe('true');
      expect(await editor.getByTestId('definition-path').textContent()).toBe(
        path.join(app.home, 'skills', 'editor', 'SKILL.md'),
      );
      expect(await editor.getByTestId('definition-tools').textContent()).toBe('read_file, write_file');
      // The entry left out is said, not hidden.
      expect(await editor.textContent()).toContain('"Bash(git *)": a specifier is not supported here');
      expect(await row(page, 'agent', 'scribe').textContent()).toContain('model: claude-haiku-4-5');

      // The project's: listed, marked as not loaded, and why.
      const deploy = row(page, 'skill', 'deploy');
      expect(await deploy.getAttribute('data-source')).toBe('project');
      expect(await deploy.getAttribute('data-loaded')).toBe('false');
      expect(await deploy.getByTestId('definition-state').textContent()).toBe('not loaded');
      expect(await deploy.textContent()).toContain('This project is not trusted');
      expect(await deploy.getByTestId('definition-tools').textContent()).toBe('run_command');
      expect(await deploy.getByTestId('definition-path').textContent()).toBe(
        path.join(app.project, '.claude', 'skills', 'deploy', 'SKILL.md'),
      );
      expect(await row(page, 'agent', 'helper').getAttribute('data-loaded')).toBe('false');
      expect(await page.getByTestId('skills-trust-note').textContent()).toContain('not trusted');
      expect(await page.getByRole('region', { name: 'Files that are not offered' }).textContent()).toContain(
        path.join(app.home, 'skills', 'broken', 'SKILL.md'),
      );
      // The page and `gatehouse skills list` agree on what a run loads.
      const cli = JSON.parse(
        gatehouse(app, ['skills', 'list', '--project', app.project, '--json']).trim().split('\n').pop() ?? '{}',
      ) as { skills: { name: string }[]; agents: { name: string }[] };
      expect(cli.skills.map((s) => s.name)).toEqual(['editor']);
      expect(cli.agents.map((a) => a.name)).toEqual(['scribe']);

      const found: string[] = [];
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        for (const v of await seriousViolations(page)) found.push(`${theme}: ${v}`);
      }
      expect(found).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'skills-page.png') });

      // Trusted: the project's load.
      gatehouse(app, ['trust', 'set', app.project, '--scope', 'directory']);
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await expect.poll(() => deploy.getAttribute('data-loaded'), POLL).toBe('true');
      expect(await deploy.getByTestId('definition-state').textContent()).toBe('loaded');
      expect(await row(page, 'agent', 'helper').getAttribute('data-loaded')).toBe('true');
      expect(await page.getByTestId('skills-trust-note').count()).toBe(0);
      expect(problems).toEqual([]);
    });
  },
);
