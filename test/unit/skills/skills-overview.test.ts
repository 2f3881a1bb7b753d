import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { skillsOverview } from '../../../src/main/core/definitions/skills-overview';
import { ALL_EXTENSIONS } from '../../../src/shared/trust-contract';

// What the Skills & sub-agents page lists, on real folders: the person's own always, the project's always listed but
// loaded only in a trusted project whose trust enables its instructions.

let root: string;
let configDir: string;
let project: string;
const write = (file: string, text: string): void => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-skills-overview-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  write(
    path.join(configDir, 'skills', 'notes', 'SKILL.md'),
    '---\nname: notes\ndescription: Mine\nallowed-tools: Read\n---\n',
  );
  write(path.join(project, '.claude', 'skills', 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Theirs\n---\n');
  write(
    path.join(project, '.gatehouse', 'skills', 'ship', 'SKILL.md'),
    '---\nname: ship\ndescription: Ship it\nallowed-tools: Bash\n---\n',
  );
  write(
    path.join(project, '.claude', 'agents', 'helper.md'),
    '---\nname: helper\ndescription: Helps\nagentMode: plan\n---\n',
  );
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const names = (items: { name: string; source: string; loaded: boolean }[]) =>
  items.map((d) => `${d.source} ${d.name} ${d.loaded ? 'loaded' : 'not loaded'}`);

describe('skillsOverview', () => {
  it("untrusted: the project's are listed, not loaded, with why (a name taken by yours says so too)", async () => {
    const o = await skillsOverview({
      configDir,
      projectRoot: project,
      trust: { trusted: false, extensions: ALL_EXTENSIONS },
    });
    expect(o.projectLoaded).toBe(false);
    expect(names(o.skills)).toEqual(['user notes loaded', 'project ship not loaded', 'project notes not loaded']);
    expect(o.skills[0]!.tools).toEqual(['read_file']);
    expect(o.skills[1]).toMatchObject({
      tools: ['run_command'],
      notLoadedReason: expect.stringMatching(/not trusted/),
    });
    expect(o.skills[2]!.notLoadedReason).toContain(
      `the name is taken by ${path.join(configDir, 'skills', 'notes', 'SKILL.md')}`,
    );
    expect(o.agents).toEqual([
      expect.objectContaining({ name: 'helper', loaded: false, agentMode: 'plan', tools: null }),
    ]);
    expect(o.projectNote).toMatch(/not trusted/);
  });

  it('trusted with instructions off: still not loaded, and the note says why; on: loaded', async () => {
    const off = await skillsOverview({
      configDir,
      projectRoot: project,
      trust: { trusted: true, extensions: { ...ALL_EXTENSIONS, instructions: false } },
    });
    expect(off.projectNote).toMatch(/does not enable its instructions/);
    expect(off.skills.filter((s) => s.source === 'project').every((s) => !s.loaded)).toBe(true);
    const on = await skillsOverview({
      configDir,
      projectRoot: project,
      trust: { trusted: true, extensions: ALL_EXTENSIONS },
    });
    expect(on.projectNote).toBeNull();
    expect(names(on.skills)).toEqual(['user notes loaded', 'project ship loaded']);
    // The project's "notes" is not offered (yours comes first): a problem with its path.
    expect(on.problems).toEqual([
      {
        path: path.join(project, '.claude', 'skills', 'notes', 'SKILL.md'),
        reason: expect.stringContaining('already taken'),
      },
    ]);
    expect(names(on.agents)).toEqual(['project helper loaded']);
  });

  it('no project open: yours only', async () => {
    const o = await skillsOverview({ configDir, projectRoot: null, trust: null });
    expect(names(o.skills)).toEqual(['user notes loaded']);
    expect(o.projectNote).toBeNull();
    expect(o.folders).toEqual({ skills: path.join(configDir, 'skills'), agents: path.join(configDir, 'agents') });
  });
});
