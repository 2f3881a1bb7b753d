import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { trustPreview } from '../../../src/main/core/trust/trust-preview';
import { TrustPreviewSchema } from '../../../src/shared/trust-contract';
import { tempDir, write } from './helpers';

// The trust dialog lists the project's skills and sub-agents (what trusting it would offer the model), and the
// definition files it would not offer, with their path and why.

let root: string;
let project: string;
const p = (...s: string[]) => path.join(project, ...s);

beforeEach(() => {
  root = tempDir();
  project = path.join(root, 'project');
  fs.mkdirSync(project);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('trustPreview: skills and sub-agents', () => {
  it('lists them from .gatehouse and .claude, with warnings, and reports malformed or escaping files', async () => {
    write(
      p('.gatehouse/skills/deploy/SKILL.md'),
      '---\nname: deploy\ndescription: Ship it\nallowed-tools: Bash(npm *), Read\n---\nSteps\n',
    );
    write(p('.claude/skills/review/SKILL.md'), '---\nname: review\ndescription: Review a diff\n---\nLook\n');
    write(p('.claude/skills/broken/SKILL.md'), 'no front matter at all\n');
    write(p('.claude/agents/helper.md'), '---\nname: helper\ndescription: Helps\ntools: Read, Task\n---\nYou help.\n');
    write(path.join(root, 'outside/SKILL.md'), '---\nname: sneaky\ndescription: outside\n---\nx\n');
    fs.mkdirSync(p('.claude/skills/sneaky'), { recursive: true });
    fs.symlinkSync(path.join(root, 'outside/SKILL.md'), p('.claude/skills/sneaky/SKILL.md'));
    const preview = TrustPreviewSchema.parse(await trustPreview(project));
    expect(preview.skills).toEqual([
      {
        file: p('.gatehouse/skills/deploy/SKILL.md'),
        name: 'deploy',
        description: 'Ship it',
        warnings: [expect.stringContaining('"Bash(npm *)": a specifier is not supported here')],
      },
      { file: p('.claude/skills/review/SKILL.md'), name: 'review', description: 'Review a diff' },
    ]);
    expect(preview.agents).toEqual([
      {
        file: p('.claude/agents/helper.md'),
        name: 'helper',
        description: 'Helps',
        warnings: ['tools: a sub-agent cannot start sub-agents; task is left out'],
      },
    ]);
    expect(preview.errors).toEqual(
      expect.arrayContaining([
        { file: p('.claude/skills/broken/SKILL.md'), reason: expect.stringContaining('no front matter') },
        { file: p('.claude/skills/sneaky/SKILL.md'), reason: expect.stringContaining('points outside the project') },
      ]),
    );
  });

  it('a project with none lists none', async () => {
    const preview = await trustPreview(project);
    expect(preview.skills).toEqual([]);
    expect(preview.agents).toEqual([]);
  });
});
