import { describe, expect, it } from 'vitest';
import { lintRule } from '../../../src/main/core/permission/rules/lint-rule';
import { pathSystem } from '../../../src/shared/node/platform-path';

describe('lintRule: what a rule will really do, for the editor, the trust dialog and the CLI', () => {
  it('a mistyped tool name is valid syntax but matches nothing, and says which tool was meant', () => {
    expect(lintRule('Bsh(ls)')).toEqual({
      error: null,
      warnings: ['unknown tool "Bsh": did you mean Bash? As written the rule matches nothing'],
    });
    expect(lintRule('Raed(src/**)').warnings[0]).toContain('did you mean Read?');
  });

  it("another agent's tool is named as such, not as a typo", () => {
    expect(lintRule('WebFetch(domain:example.com)').warnings).toEqual([
      'Gatehouse has no tool "WebFetch": the rule is kept but matches nothing',
    ]);
    // MCP rules apply to MCP tools: no warning.
    expect(lintRule('mcp__github__create_issue').warnings).toEqual([]);
  });

  it('an allow outside the project: path confinement always wins', () => {
    for (const rule of ['Read(../**)', 'Edit(//etc/**)', 'Read(~/.ssh/**)'])
      expect(lintRule(rule, 'allow').warnings.join()).toContain('path confinement always wins');
    // A deny there still does something (commands that read ../ are judged by it): no warning.
    expect(lintRule('Read(../**)', 'deny').warnings).toEqual([]);
  });

  it("an allow to write Gatehouse's own settings, or to run a denied program, can never take effect", () => {
    expect(lintRule('Edit(.gatehouse/**)').warnings.join()).toContain('self-protection always wins');
    expect(lintRule('Write(./.claude/settings.json)').warnings.join()).toContain('self-protection');
    expect(lintRule('Bash(sudo:*)').warnings.join()).toContain('built-in deny list always wins');
    expect(lintRule('Bash(sudo apt install x)').warnings.join()).toContain('"sudo"');
  });

  it('ordinary rules have nothing to say; broken ones give the parser reason', () => {
    for (const rule of ['Bash(npm test)', 'Read(src/**)', 'Edit', 'Bash(git push:*)'])
      expect(lintRule(rule)).toEqual({ error: null, warnings: [] });
    expect(lintRule('bash(ls)').error).toContain('did you mean "Bash"');
    expect(lintRule('Read(').error).not.toBeNull();
  });

  it('on Windows, a //Name/ rule written as on macOS names a network share: said, for deny rules too', () => {
    const win = pathSystem('win32', true);
    const warning = lintRule('Read(//Users/**)', 'deny', win).warnings.join();
    expect(warning).toContain('network share \\\\Users,');
    expect(warning).toContain('//c/Users/**');
    for (const rule of ['Read(//c/Users/**)', 'Read(//C:/Users/**)', 'Read(///srv/share/**)', 'Read(//**)'])
      expect(lintRule(rule, 'deny', win).warnings, rule).toEqual([]);
    expect(lintRule('Read(//Users/**)', 'deny', pathSystem('posix', false)).warnings).toEqual([]);
  });
});
