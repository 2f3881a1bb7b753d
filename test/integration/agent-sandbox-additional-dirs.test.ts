import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { makeSandbox, runGatehouse, sentToolResults, trustProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';
import { createSession } from '../../src/main/shells/sdk';
import { findOnPath } from '../../src/sandbox/find-binary';

// `permissions.additionalDirectories` from the settings, resolved by the engine, are writable inside the sandbox
// (through the whole path: main -> worker -> bubblewrap); an untrusted project's own list is not.

const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;
if (bwrap === null) console.warn('agent-sandbox-additional-dirs tests skipped: bubblewrap (bwrap) is not installed');

let fake: FakeAnthropic;
let box: Sandbox;
let shared: string;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = makeSandbox(fake);
  shared = fs.realpathSync(fs.mkdtempSync('/var/tmp/gatehouse-shared-lib-'));
});
afterEach(async () => {
  await fake.close();
  box.cleanup();
  fs.rmSync(shared, { recursive: true, force: true });
});

const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
/** A write the engine cannot see (no redirection): only the OS decides. */
const write = (file: string): string => `${PYTHON} -c "open('${file}','w').write('from-sandbox')"`;

describe.skipIf(bwrap === null)('additional directories of the settings in the sandbox (real bubblewrap)', () => {
  it("the user's permissions.additionalDirectories (with ~ and a symlink) are writable; others are not", async () => {
    fs.symlinkSync(shared, path.join(box.home, 'lib'));
    fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), 'permissions:\n  additionalDirectories: ["~/lib"]\n');
    await trustProject(box);
    const elsewhere = fs.mkdtempSync('/var/tmp/gatehouse-elsewhere-');
    try {
      fake.enqueue(
        reply(
          toolUse('toolu_a', 'run_command', {
            command: `${write(`${shared}/made.txt`)}; ${write(`${elsewhere}/no.txt`)}`,
          }),
        ),
        reply(text('Done.')),
      );
      const r = await runGatehouse(
        ['run', '--project', box.project, '--mode', 'bypassPermissions', 'do it'],
        box.env,
        box.home,
      );
      expect(r.code, r.stderr).toBe(0);
      const [result] = sentToolResults(fake.requests[1]!.body);
      expect(fs.existsSync(path.join(shared, 'made.txt')), String(result!.content)).toBe(true);
      expect(fs.readFileSync(path.join(shared, 'made.txt'), 'utf8')).toBe('from-sandbox');
      expect(fs.existsSync(path.join(elsewhere, 'no.txt'))).toBe(false);
      expect(String(result!.content)).toContain(`blocked by sandbox: write outside the project: ${elsewhere}/no.txt`);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("an untrusted project's own additionalDirectories do not widen the sandbox", async () => {
    fs.mkdirSync(path.join(box.project, '.gatehouse'));
    fs.writeFileSync(
      path.join(box.project, '.gatehouse', 'settings.yaml'),
      `permissions:\n  additionalDirectories: ["${shared}"]\n`,
    );
    fake.enqueue(
      reply(toolUse('toolu_b', 'run_command', { command: write(`${shared}/made.txt`) })),
      reply(text('Done.')),
    );
    // Untrusted: the command asks; a person allows it once, and then only the OS stands in the way.
    const session = await createSession({
      project: box.project,
      configDir: box.configDir,
      env: box.env,
      approve: () => 'once',
    });
    try {
      expect((await session.prompt('do it')).status).toBe('completed');
    } finally {
      await session.close();
    }
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(fs.existsSync(path.join(shared, 'made.txt'))).toBe(false);
    expect(String(result!.content)).toContain('blocked by sandbox: write outside the project');
  });
});
