import path from 'node:path';
import { z } from 'zod';
import { TOOL_NAMES } from '../../../shared/tools';
import { SKILL_NAME, translateToolEntry, type SkillWire } from '../../../shared/skills-contract';
import { readDefinitionFolder, type DefinitionFolder, type DefinitionRead } from './definition-files';
import { splitFrontMatter, toolList } from './front-matter';

/** A file that was not offered (or an entry of it that was left out), with its path and why. */
export interface DefinitionProblem {
  path: string;
  reason: string;
  /** `warning`: the definition is offered, one of its entries is left out; `error`: it is not offered. */
  severity: 'error' | 'warning';
}

export interface Discovered<T> {
  items: T[];
  problems: DefinitionProblem[];
}

/**
 * The folders skills come from, in precedence order: the person's own (`<Gatehouse home>/skills`), then the
 * project's `.gatehouse/skills` and Claude Code's `.claude/skills`, only in a trusted project. A name is offered once:
 * the first folder wins, and a later definition of the same name is reported and not offered (a project can never
 * replace a skill of the person's).
 */
export function skillFolders(configDir: string): DefinitionFolder[] {
  return [
    { source: 'user', dir: path.join(configDir, 'skills') },
    { source: 'project', dir: path.join('.gatehouse', 'skills') },
    { source: 'project', dir: path.join('.claude', 'skills') },
  ];
}

const SkillFrontMatterSchema = z.looseObject({
  name: z.string().regex(SKILL_NAME, 'use lowercase letters, digits and "-" (at most 64 characters)'),
  description: z.string().trim().min(1, 'must not be empty').max(1024, 'at most 1024 characters'),
});

export function zodProblem(error: z.ZodError): string {
  return error.issues
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(front matter)'}: ${i.message}`)
    .join('; ');
}

/** Translates a tool list field; problems for the entries left out (narrower, never wider). */
export function translatedTools(
  value: unknown,
  field: string,
  file: string,
): { tools: string[] | undefined; problems: DefinitionProblem[] } | { error: string } {
  const list = toolList(value);
  if (list !== undefined && !Array.isArray(list)) return { error: `${field}: ${list.problem}` };
  if (list === undefined) return { tools: undefined, problems: [] };
  const tools: string[] = [];
  const problems: DefinitionProblem[] = [];
  for (const entry of list) {
    const translated = translateToolEntry(entry, TOOL_NAMES);
    if (typeof translated === 'string')
      problems.push({ path: file, reason: `${field}: ${translated}`, severity: 'warning' });
    else for (const t of translated) if (!tools.includes(t)) tools.push(t);
  }
  return { tools, problems };
}

/** One SKILL.md as a skill, or why it is not offered. */
export function parseSkill(
  read: Extract<DefinitionRead, { kind: 'ok' }>,
): { skill: SkillWire; problems: DefinitionProblem[] } | { problem: DefinitionProblem } {
  const fail = (reason: string) => ({ problem: { path: read.path, reason, severity: 'error' as const } });
  const split = splitFrontMatter(read.text);
  if (!split.ok) return fail(split.reason);
  const parsed = SkillFrontMatterSchema.safeParse(split.data);
  if (!parsed.success) return fail(zodProblem(parsed.error));
  const tools = translatedTools(split.data['allowed-tools'], 'allowed-tools', read.path);
  if ('error' in tools) return fail(tools.error);
  return {
    skill: {
      name: parsed.data.name,
      description: parsed.data.description,
      ...(tools.tools !== undefined ? { allowedTools: tools.tools } : {}),
      body: split.body,
      path: read.path,
      source: read.source,
    },
    problems: tools.problems,
  };
}

/** Reads the folders in precedence order and keeps the first definition of each name. */
export async function discoverDefinitions<T extends { name: string; path: string }>(
  folders: readonly DefinitionFolder[],
  layout: 'skill' | 'agent',
  projectRoot: string | null,
  projectTrusted: boolean,
  parse: (
    read: Extract<DefinitionRead, { kind: 'ok' }>,
  ) => { item: T; problems: DefinitionProblem[] } | DefinitionProblem,
): Promise<Discovered<T>> {
  const wanted = folders.filter((f) => f.source === 'user' || (projectTrusted && projectRoot !== null));
  const reads = await Promise.all(wanted.map((f) => readDefinitionFolder(f, layout, projectRoot)));
  const items: T[] = [];
  const problems: DefinitionProblem[] = [];
  for (const read of reads.flat()) {
    if (read.kind === 'problem') {
      problems.push({ path: read.path, reason: read.reason, severity: 'error' });
      continue;
    }
    const parsed = parse(read);
    if (!('item' in parsed)) {
      problems.push(parsed);
      continue;
    }
    problems.push(...parsed.problems);
    const taken = items.find((s) => s.name === parsed.item.name);
    if (taken) {
      problems.push({
        path: read.path,
        reason: `not offered: the name "${parsed.item.name}" is already taken by ${taken.path} (the person's own folder comes first, then .gatehouse, then .claude)`,
        severity: 'error',
      });
      continue;
    }
    items.push(parsed.item);
  }
  return { items, problems };
}

/** The skills a run may load: the person's, and the project's only when it is trusted. */
export function discoverSkills(options: {
  configDir: string;
  projectRoot: string | null;
  projectTrusted: boolean;
}): Promise<Discovered<SkillWire>> {
  return discoverDefinitions(
    skillFolders(options.configDir),
    'skill',
    options.projectRoot,
    options.projectTrusted,
    (read) => {
      const parsed = parseSkill(read);
      return 'problem' in parsed ? parsed.problem : { item: parsed.skill, problems: parsed.problems };
    },
  );
}
