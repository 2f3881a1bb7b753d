import { describe, expect, it } from 'vitest';
import { ApiChannels } from '../../src/shared/api';
import { GatehouseError } from '../../src/shared/errors';
import { parseAtBoundary } from '../../src/shared/validate';
import { PortMessageSchema, WorkerMethods } from '../../src/shared/worker-protocol';
import { TOOLS } from '../../src/shared/tools';

function rejection(fn: () => unknown): GatehouseError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatehouseError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('the contract rejects malformed messages at the boundary', () => {
  it('names the field and the reason', () => {
    const err = rejection(() => parseAtBoundary(ApiChannels.openProject.request, { path: 42 }, 'openProject'));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/^openProject\.path: .*string/i);
  });

  it('refuses unexpected fields in renderer requests instead of ignoring them', () => {
    const err = rejection(() => parseAtBoundary(ApiChannels.getAppInfo.request, { evil: true }, 'getAppInfo'));
    expect(err.message).toMatch(/evil/);
  });

  it('rejects port messages of unknown kinds, bad ids and bad responses', () => {
    expect(PortMessageSchema.safeParse({ kind: 'request', id: -1, method: 'info', params: {} }).success).toBe(false);
    expect(PortMessageSchema.safeParse({ kind: 'nonsense' }).success).toBe(false);
    expect(PortMessageSchema.safeParse({ kind: 'response', id: 1, ok: false }).success).toBe(false);
    expect(
      PortMessageSchema.safeParse({
        kind: 'response',
        id: 1,
        ok: false,
        error: { code: 'WORKER_CRASHED', message: 'x' },
      }).success,
    ).toBe(true);
    expect(
      PortMessageSchema.safeParse({ kind: 'response', id: 1, ok: false, error: { code: 'MADE_UP', message: 'x' } })
        .success,
    ).toBe(false);
  });

  it('validates worker method params', () => {
    const err = rejection(() => parseAtBoundary(WorkerMethods.delay.params, { ms: 'soon' }, 'delay'));
    expect(err.message).toMatch(/^delay\.ms:/);
    expect(() => parseAtBoundary(WorkerMethods.delay.params, { ms: 10 }, 'delay')).not.toThrow();
  });

  it('validates tool inputs with messages a model can act on', () => {
    const err = rejection(() => parseAtBoundary(TOOLS.run_command.input, { command: 42 }, 'run_command'));
    expect(err.message).toMatch(/run_command\.command/);
    expect(rejection(() => parseAtBoundary(TOOLS.read_file.input, {}, 'read_file')).message).toMatch(/read_file\.path/);
  });
});
