import { describe, expect, it } from 'vitest';
import { connectionText } from '../../../src/renderer/src/app/connection-text';

describe('the connection badge text', () => {
  it('ends each sentence once: a reason ending in "?" gets no "." after it', () => {
    expect(
      connectionText({
        status: 'closed',
        retryInMs: 1500,
        reason: 'cannot reach Gatehouse: is `gatehouse web` still running?',
      }),
    ).toBe('Disconnected: cannot reach Gatehouse: is `gatehouse web` still running? Retrying in 2 s');
    expect(connectionText({ status: 'closed', retryInMs: 500, reason: 'connection lost' })).toBe(
      'Disconnected: connection lost. Retrying in 1 s',
    );
    expect(connectionText({ status: 'closed', retryInMs: 4000, reason: 'the server restarted.  ' })).toBe(
      'Disconnected: the server restarted. Retrying in 4 s',
    );
  });

  it('names the other states', () => {
    expect(connectionText({ status: 'open' })).toBe('Connected');
    expect(connectionText({ status: 'connecting', attempt: 1 })).toBe('Connecting…');
    expect(connectionText({ status: 'connecting', attempt: 3 })).toBe('Connecting (attempt 3)…');
    expect(connectionText({ status: 'unauthorized', reason: 'the token was refused' })).toBe(
      'Not connected: the token was refused',
    );
  });
});
