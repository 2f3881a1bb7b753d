import { useCallback, useEffect, useRef, useState } from 'react';
import type { Dispatch, SetStateAction } from 'react';
import type { ApiEvent, GatehouseApi } from '../../../shared/api';
import { useApi, useApiEvent, useConnection } from './context';
import { errorMessage } from './errors';

export interface ApiResource<T> {
  /** The last answer, or null before the first one. */
  data: T | null;
  /** Why the last read failed (`<failure>: <reason>`), or what the page set; null once a read succeeds. */
  error: string | null;
  /** Reads again (the Refresh button, after a change the page made itself). */
  reload: () => void;
  /** For a page whose own request answers with a fresh copy. */
  setData: Dispatch<SetStateAction<T | null>>;
  /** For a page's own failed actions, shown where a failed read is. */
  setError: Dispatch<SetStateAction<string | null>>;
}

/**
 * Data a page reads from main and keeps current: read once the link to main is open, again when the person comes
 * back to the window (files edited elsewhere, by the CLI or an editor, show then) and on each event in `reloadOn`.
 * A read that a newer one overtook is dropped, so a slow old answer never replaces a newer one.
 */
export function useApiResource<T>(
  read: (api: GatehouseApi) => Promise<T>,
  options: { failure: string; reloadOn: readonly ApiEvent['type'][] },
): ApiResource<T> {
  const api = useApi();
  const connected = useConnection().status === 'open';
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The caller's latest function and message: a page passes them inline, and a new one must not read again.
  const latest = useRef({ read, failure: options.failure });
  useEffect(() => {
    latest.current = { read, failure: options.failure };
  });
  const reads = useRef(0);

  const reload = useCallback(() => {
    const seq = ++reads.current;
    const { read: readNow, failure } = latest.current;
    readNow(api).then(
      (value) => {
        if (seq !== reads.current) return;
        setData(value);
        setError(null);
      },
      (err: unknown) => {
        if (seq === reads.current) setError(`${failure}: ${errorMessage(err)}`);
      },
    );
  }, [api]);

  useEffect(() => {
    if (!connected) return;
    reload();
    window.addEventListener('focus', reload);
    return () => window.removeEventListener('focus', reload);
  }, [connected, reload]);
  useApiEvent((event) => {
    if (options.reloadOn.includes(event.type)) reload();
  });

  return { data, error, reload, setData, setError };
}
