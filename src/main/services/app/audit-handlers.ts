import path from 'node:path';
import type { z } from 'zod';
import type { AuditChannels, AuditRecord } from '../../../shared/audit-contract';
import { GatehouseError } from '../../../shared/errors';
import { readAudit } from '../../core/permission/audit-reader';
import { redactText } from '../../core/permission/redact';
import { SessionStore } from '../../core/session/session-store';

type Channels = typeof AuditChannels;
export type AuditHandlers = {
  [C in keyof Channels]: (request: z.infer<Channels[C]['request']>) => Promise<z.infer<Channels[C]['response']>>;
};

export interface AuditHandlerOptions {
  configDir: string;
  currentProject(): string | null;
  /** The person's home folder: shown as `~` in an export. */
  home: string;
}

/** Every string of a value redacted again, and the home folder written as `~`. */
function scrub(value: unknown, home: string): unknown {
  if (typeof value === 'string') {
    const redacted = redactText(value);
    return home.length > 1 ? redacted.split(home).join('~') : redacted;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, home));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, home)]));
  return value;
}

/** The Audit log view: the open project's decisions, and their export. */
export function createAuditHandlers(options: AuditHandlerOptions): AuditHandlers {
  const file = path.join(options.configDir, 'audit.jsonl');
  const project = (): string => {
    const dir = options.currentProject();
    if (!dir) throw new GatehouseError('BAD_REQUEST', 'open a project folder to see its audit log');
    return dir;
  };
  return {
    listAudit: async ({ limit }) => {
      const dir = project();
      const sessions = new Set(
        (await new SessionStore({ configDir: options.configDir }).list())
          .filter((s) => s.projectRoot === dir)
          .map((s) => s.id),
      );
      const page = await readAudit({ file, project: dir, sessions, limit: limit ?? 2000 });
      return { file, ...page };
    },
    exportAudit: async ({ entries }) => {
      const name = path.basename(project()).replace(/[^A-Za-z0-9._-]/g, '_') || 'project';
      const text = entries.map((e: AuditRecord) => JSON.stringify(scrub(e, options.home))).join('\n');
      return { fileName: `gatehouse-audit-${name}.jsonl`, text: text ? `${text}\n` : '' };
    },
  };
}
