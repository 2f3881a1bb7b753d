import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { runGatehouse, sentToolResults, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';
import { findOnPath } from '../../src/sandbox/find-binary';

// The whole path (`gatehouse run` -> main computes what the Read deny rules deny -> worker -> bubblewrap): in
// bypassPermissions mode the engine lets a script of the project through (code it cannot see into; a `grep -r` it
// can see is itself denied, as it reads every file below its folder), and only the sandbox hides the denied files
// from what the script runs.

const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;

let fake: FakeAnthropic;
let box: Sandbox;
withTrustedProject('gatehouse-agent-read-deny-', (f, b) => {
  fake = f;
  box = b;
});

describe.skipIf(bwrap === null)('run_command under Read deny rules (through gatehouse run)', () => {
  it('a recursive grep in a script does not see files a Read deny rule denies; the rest it does', async () => {
    fs.mkdirSync(path.join(box.project, 'secrets'));
    fs.writeFileSync(path.join(box.project, 'secrets', 'key.txt'), 'key = AGENT-SECRET-1\n');
    fs.writeFileSync(path.join(box.project, '.env'), 'key=AGENT-SECRET-2\n');
    fs.writeFileSync(path.join(box.project, 'notes.txt'), 'key: public\n');
    fs.writeFileSync(
      path.join(box.project, 'scan.sh'),
      'grep -rn key . ; python3 -c "print(open(\'secrets/key.txt\').read())"\n',
    );
    fake.enqueue(reply(toolUse('toolu_g', 'run_command', { command: 'bash scan.sh' })), reply(text('Done.')));
    const args = [
      'run',
      '--project',
      box.project,
      '--mode',
      'bypassPermissions',
      '--deny',
      'Read(./secrets/**)',
      '--deny',
      'Read(.env)',
      'look',
    ];
    const r = await runGatehouse(args, box.env, box.home);
    expect(r.code, r.stderr).toBe(0);
    const [result] = sentToolResults(fake.requests[1]!.body);
    const content = String(result!.content);
    expect(content).toContain('./notes.txt:1:key: public');
    expect(content).not.toContain('AGENT-SECRET');
    expect(content).toContain('hidden by the Read deny rule Read(./secrets/**)');
  });
});
