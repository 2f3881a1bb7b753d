import { isMap, isScalar, isSeq } from 'yaml';
import type { Document, YAMLMap, YAMLSeq } from 'yaml';
import { checkHookMatcher } from './hook-spec';
import { editSettingsDocument } from '../settings/settings-document';

/**
 * Edits of a settings file's `hooks` block (Claude Code's shape: `hooks.EVENT[] = { matcher?, hooks: [{ type:
 * command, command, timeout? }] }`), with the same guarantees as the rule edits: yaml's Document API (comments and
 * layout kept, the file's other keys untouched), atomic writes under the file's lock, a broken file refused. A hook
 * is named by its event, matcher and command, as listed: one changed on disk meanwhile is not found.
 */

export interface HookFileSpec {
  event: string;
  matcher: string;
  command: string;
  /** Seconds; absent: the default. */
  timeoutSeconds?: number;
}
export type HookFileRef = Pick<HookFileSpec, 'event' | 'matcher' | 'command'>;

/** Refuses a hook that could never run as meant: no command, or a matcher that is not valid. */
function checked(spec: HookFileSpec): HookFileSpec {
  const command = spec.command.trim();
  if (!command) throw new Error('a hook needs a command');
  const matcher = spec.matcher.trim();
  const { error } = checkHookMatcher(spec.event, matcher);
  if (error) throw new Error(error);
  return { ...spec, matcher, command };
}

const isEmpty = (node: unknown): boolean =>
  node === undefined || node === null || (isScalar(node) && node.value === null);

/** The `hooks` mapping, created when missing (with `create`); an existing non-mapping is refused. */
function hooksMap(doc: Document, file: string, create: boolean): YAMLMap | null {
  const node = doc.getIn(['hooks'], true);
  if (isMap(node)) return node;
  if (!isEmpty(node)) throw new Error(`${file}: "hooks" must be a mapping of events`);
  if (!create) return null;
  doc.setIn(['hooks'], doc.createNode({}));
  const created: unknown = doc.getIn(['hooks'], true);
  if (!isMap(created)) throw new Error(`${file}: "hooks" could not be created`);
  return created;
}

/** The groups of one event (`hooks.EVENT`), created when missing (with `create`). */
function eventGroups(doc: Document, file: string, event: string, create: boolean): YAMLSeq | null {
  const hooks = hooksMap(doc, file, create);
  if (!hooks) return null;
  const node = hooks.get(event, true);
  if (isSeq(node)) return node;
  if (!isEmpty(node)) throw new Error(`${file}: hooks.${event} must be a list of matcher groups`);
  if (!create) return null;
  hooks.set(event, doc.createNode([]));
  const created: unknown = hooks.get(event, true);
  if (!isSeq(created)) throw new Error(`${file}: hooks.${event} could not be created`);
  return created;
}

const text = (node: unknown): string => (isScalar(node) && node.value !== null ? String(node.value) : '');

/** A group's matcher as written ('' when absent: every tool). */
const matcherOf = (group: YAMLMap): string => text(group.get('matcher', true)).trim();

/** The command hooks of a group (its `hooks` list), or null when it has none. */
function groupHooks(group: unknown): YAMLSeq | null {
  if (!isMap(group)) return null;
  const list = group.get('hooks', true);
  return isSeq(list) ? list : null;
}

const isCommand = (hook: unknown, command: string): hook is YAMLMap =>
  isMap(hook) &&
  text(hook.get('type', true)) === 'command' &&
  text(hook.get('command', true)).trim() === command.trim();

function hookNode(doc: Document, spec: HookFileSpec): unknown {
  return doc.createNode({
    type: 'command',
    command: spec.command,
    ...(spec.timeoutSeconds !== undefined ? { timeout: spec.timeoutSeconds } : {}),
  });
}

function hasHook(doc: Document, file: string, ref: HookFileRef): boolean {
  const groups = eventGroups(doc, file, ref.event, false);
  return (groups?.items ?? []).some(
    (g) =>
      isMap(g) &&
      matcherOf(g) === ref.matcher.trim() &&
      (groupHooks(g)?.items ?? []).some((h) => isCommand(h, ref.command)),
  );
}

/** Adds the hook to its event's group with the same matcher (a new group when there is none). */
function addTo(doc: Document, file: string, spec: HookFileSpec): void {
  const groups = eventGroups(doc, file, spec.event, true)!;
  let group = groups.items.find((g) => isMap(g) && matcherOf(g) === spec.matcher && groupHooks(g) !== null);
  if (!group) {
    groups.add(doc.createNode({ ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [] }));
    group = groups.items[groups.items.length - 1];
  }
  groupHooks(group)!.add(hookNode(doc, spec));
}

/** Removes every copy of the hook; groups, events and the block left empty go too. Whether any was there. */
function removeFrom(doc: Document, file: string, ref: HookFileRef): boolean {
  const groups = eventGroups(doc, file, ref.event, false);
  if (!groups) return false;
  let removed = false;
  for (const g of groups.items) {
    const list = groupHooks(g);
    if (!list || !isMap(g) || matcherOf(g) !== ref.matcher.trim()) continue;
    const before = list.items.length;
    list.items = list.items.filter((h) => !isCommand(h, ref.command));
    removed ||= list.items.length !== before;
  }
  if (!removed) return false;
  groups.items = groups.items.filter((g) => groupHooks(g)?.items.length !== 0);
  if (groups.items.length === 0) {
    const hooks = hooksMap(doc, file, false)!;
    hooks.delete(ref.event);
    if (hooks.items.length === 0) doc.delete('hooks');
  }
  return true;
}

/** Adds a command hook to a settings file. Resolves false when the same hook (event, matcher, command) is there. */
export async function addHookToFile(file: string, spec: HookFileSpec): Promise<boolean> {
  const hook = checked(spec);
  return editSettingsDocument(file, (doc) => {
    if (hasHook(doc, file, hook)) return false;
    addTo(doc, file, hook);
    return true;
  });
}

/** Removes a hook (every copy) from a settings file. Resolves false when it is not there. */
export async function removeHookFromFile(file: string, ref: HookFileRef): Promise<boolean> {
  return editSettingsDocument(file, (doc) => removeFrom(doc, file, ref), { skipMissing: true });
}

/**
 * Changes a hook in one atomic write: same event and matcher, the hook's command and timeout change where it stands
 * (its comments stay); otherwise it leaves its group for the new one. Resolves false when `from` is not there.
 */
export async function replaceHookInFile(file: string, from: HookFileRef, to: HookFileSpec): Promise<boolean> {
  const hook = checked(to);
  let found = false;
  await editSettingsDocument(
    file,
    (doc) => {
      if (!hasHook(doc, file, from)) return false;
      found = true;
      const sameGroup = from.event === hook.event && from.matcher.trim() === hook.matcher;
      const sameHook = sameGroup && from.command.trim() === hook.command;
      if (sameGroup && (sameHook || !hasHook(doc, file, hook))) {
        for (const g of eventGroups(doc, file, from.event, false)!.items) {
          if (!isMap(g) || matcherOf(g) !== hook.matcher) continue;
          const target = groupHooks(g)?.items.find((h) => isCommand(h, from.command));
          if (!isMap(target)) continue;
          const before = doc.toString();
          if (!sameHook) target.set('command', hook.command);
          if (hook.timeoutSeconds !== undefined) target.set('timeout', hook.timeoutSeconds);
          else target.delete('timeout');
          return doc.toString() !== before;
        }
        return false;
      }
      removeFrom(doc, file, from);
      if (!hasHook(doc, file, hook)) addTo(doc, file, hook);
      return true;
    },
    { skipMissing: true },
  );
  return found;
}
