// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, GatehouseApi } from '../../../src/shared/api';
import { ApiProvider } from '../../../src/renderer/src/api/context';
import { useApiResource } from '../../../src/renderer/src/api/use-api-resource';
import type { ApiClient, ConnectionState } from '../../../src/renderer/src/api/types';
import type { ApiResource } from '../../../src/renderer/src/api/use-api-resource';

// The hook behind the Hooks, MCP, Skills and Checkpoints pages, mounted in a DOM with a fake link to main: when it
// reads, what it shows, and that a slow old answer never replaces a newer one.

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

/** A link to main whose state, events and answers the test drives. */
function fakeClient() {
  let state: ConnectionState = { status: 'connecting', attempt: 1 };
  const onState = new Set<(s: ConnectionState) => void>();
  const onEvent = new Set<(e: ApiEvent) => void>();
  const api = {
    onEvent: (listener: (e: ApiEvent) => void) => {
      onEvent.add(listener);
      return () => void onEvent.delete(listener);
    },
  } as unknown as GatehouseApi;
  const client: ApiClient = {
    api,
    transport: 'socket',
    connection: () => state,
    onConnection: (listener) => {
      onState.add(listener);
      return () => void onState.delete(listener);
    },
    close: () => undefined,
  };
  return {
    client,
    setState: (next: ConnectionState) =>
      act(() => {
        state = next;
        for (const l of onState) l(next);
      }),
    push: (event: ApiEvent) =>
      act(() => {
        for (const l of onEvent) l(event);
      }),
  };
}

/** Every read the hook started, answered by the test. */
function reads() {
  const started: Array<{ api: GatehouseApi; answer: (v: string) => Promise<void>; fail: (e: Error) => Promise<void> }> =
    [];
  const read = (api: GatehouseApi): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      started.push({
        api,
        answer: (v) => act(async () => resolve(v)),
        fail: (e) => act(async () => reject(e)),
      });
    });
  return { started, read };
}

const mounted = new Set<Root>();
afterEach(() => {
  for (const root of mounted) act(() => root.unmount());
  mounted.clear();
});

function mount(reloadOn: readonly ApiEvent['type'][] = ['settingsChanged']) {
  const link = fakeClient();
  const r = reads();
  const seen: { current: ApiResource<string> | null } = { current: null };
  function Page() {
    seen.current = useApiResource(r.read, { failure: 'Could not read the things', reloadOn });
    return null;
  }
  const root = createRoot(document.createElement('div'));
  mounted.add(root);
  act(() =>
    root.render(
      <ApiProvider client={link.client}>
        <Page />
      </ApiProvider>,
    ),
  );
  const now = (): ApiResource<string> => {
    if (!seen.current) throw new Error('the page never rendered');
    return seen.current;
  };
  const unmount = () => {
    mounted.delete(root);
    act(() => root.unmount());
  };
  return { ...link, ...r, now, unmount };
}

const focus = () => act(() => void window.dispatchEvent(new Event('focus')));

describe('useApiResource', () => {
  it('reads once the link to main is open, through that link, and shows the answer', async () => {
    const page = mount();
    expect(page.started).toHaveLength(0);
    expect(page.now()).toMatchObject({ data: null, error: null });
    await page.setState({ status: 'open' });
    expect(page.started).toHaveLength(1);
    expect(page.started[0]!.api).toBe(page.client.api);
    await page.started[0]!.answer('first');
    expect(page.now()).toMatchObject({ data: 'first', error: null });
  });

  it('reads again when the window gets the focus back, on the events named, and on reload()', async () => {
    const page = mount(['settingsChanged', 'runFinished']);
    await page.setState({ status: 'open' });
    await focus();
    expect(page.started).toHaveLength(2);
    await page.push({ type: 'projectChanged', path: '/p' }); // not named: no read
    await page.push({ type: 'settingsChanged' });
    expect(page.started).toHaveLength(3);
    await page.push({
      type: 'runFinished',
      runId: 'r1',
      status: 'completed',
      finalText: 'done',
      usage: { inputTokens: 1, outputTokens: 1 },
      turns: 1,
    });
    expect(page.started).toHaveLength(4);
    await act(() => page.now().reload());
    expect(page.started).toHaveLength(5);
  });

  it('says why a read failed, keeps what it showed, and clears the error once a read succeeds', async () => {
    const page = mount();
    await page.setState({ status: 'open' });
    await page.started[0]!.answer('shown');
    await focus();
    await page.started[1]!.fail(new Error('settings.yaml: line 3: bad indentation'));
    expect(page.now()).toMatchObject({
      data: 'shown',
      error: 'Could not read the things: settings.yaml: line 3: bad indentation',
    });
    await focus();
    await page.started[2]!.answer('fixed');
    expect(page.now()).toMatchObject({ data: 'fixed', error: null });
  });

  it('drops an answer that a newer read overtook, and an error of one', async () => {
    const page = mount();
    await page.setState({ status: 'open' });
    await focus();
    await focus();
    const [slow, failing, newest] = page.started;
    await newest!.answer('newest');
    await slow!.answer('old');
    await failing!.fail(new Error('gone'));
    expect(page.now()).toMatchObject({ data: 'newest', error: null });
  });

  it('reads again after the link comes back, and stops listening to focus once the page is gone', async () => {
    const page = mount();
    await page.setState({ status: 'open' });
    await page.setState({ status: 'closed', retryInMs: 1000, reason: 'server restarted' });
    await focus(); // no link: no read
    expect(page.started).toHaveLength(1);
    await page.setState({ status: 'open' });
    expect(page.started).toHaveLength(2);
    page.unmount();
    await focus();
    expect(page.started).toHaveLength(2);
  });
});
