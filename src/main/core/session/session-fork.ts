import { randomUUID } from 'node:crypto';
import { GatehouseError } from '../../../shared/errors';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import type { SessionStore } from './session-store';
import type { SessionHeader, TranscriptEntry } from './transcript-entry';

/**
 * A copy of session `sourceId` that ends just before the prompt of run `beforeRunId`: its header (a new id, noting
 * where it came from) and every line of the runs before that one, as they were (their messages, decisions, hook runs
 * and results). The session itself is not changed: a rewound conversation loses nothing.
 */
export async function forkSession(
  store: SessionStore,
  sourceId: string,
  beforeRunId: string,
): Promise<{ header: SessionHeader; firstPrompt: string | null }> {
  const source = await store.load(sourceId);
  if (!source.header) throw new GatehouseError('BAD_REQUEST', `session ${sourceId} has no readable header line`);
  const order: string[] = [];
  for (const e of source.entries) if (e.type === 'prompt' && !order.includes(e.runId)) order.push(e.runId);
  const cut = order.indexOf(beforeRunId);
  if (cut < 0) throw new GatehouseError('NOT_FOUND', `session ${sourceId} has no message of run ${beforeRunId}`);
  const earlier = new Set(order.slice(0, cut));
  const header: SessionHeader = {
    ...source.header,
    id: randomUUID(),
    createdAt: new Date().toISOString(),
    forkedFrom: { sessionId: sourceId, runId: beforeRunId },
  };
  const kept = source.entries.filter(
    (e): e is Exclude<TranscriptEntry, SessionHeader> => e.type !== 'session' && earlier.has(e.runId),
  );
  const lines = [header, ...kept].map((e) => JSON.stringify(e) + '\n').join('');
  await writeFileAtomicAsync(store.fileOf(header.id), lines);
  const first = kept.find((e) => e.type === 'prompt');
  return { header, firstPrompt: first?.type === 'prompt' ? first.text : null };
}
