import { GatehouseError, toRpcError } from '../../../shared/errors';
import type { IpcEnvelope } from '../../../shared/ipc-envelope';
import type { ApiHandlers } from '../../services/app/api-dispatch';
import { dispatchApi } from '../../services/app/api-dispatch';

/**
 * The answer to one renderer request over IPC: refused whole when the sender is not the app's own page, else the
 * contract-validated dispatch; errors become an `ok: false` envelope (never a throw: Electron mangles those).
 */
export async function answerIpcRequest(
  handlers: ApiHandlers,
  channel: string,
  payload: unknown,
  senderIsAppPage: boolean,
): Promise<IpcEnvelope> {
  try {
    if (!senderIsAppPage)
      throw new GatehouseError(
        'FORBIDDEN',
        `"${channel.slice(0, 100)}" refused: the request did not come from the app's own page`,
      );
    return { ok: true, result: await dispatchApi(handlers, channel, payload) };
  } catch (err) {
    return { ok: false, error: toRpcError(err) };
  }
}
