import type { WebContents, WebFrameMain } from 'electron';
import { ipcMain } from 'electron';
import { API_CHANNELS, ipcChannelName } from '../../../shared/api';
import type { AppCore } from '../../services/app/app-core';
import { answerIpcRequest } from './ipc-answer';

/** Decides whether an IPC request's sender frame is the app's own page in the app's window. */
export type SenderCheck = (frame: WebFrameMain | null, sender: WebContents) => boolean;

/**
 * One `ipcMain.handle` per API channel (nothing generic): each checks the sender frame, validates the payload
 * against the contract (dispatchApi) and answers with an envelope. Returns a function removing the handlers.
 */
export function registerApiIpc(core: AppCore, isAppSender: SenderCheck): () => void {
  for (const channel of API_CHANNELS) {
    ipcMain.handle(ipcChannelName(channel), (event, payload: unknown) =>
      answerIpcRequest(core.handlers, channel, payload, isAppSender(event.senderFrame, event.sender)),
    );
  }
  return () => {
    for (const channel of API_CHANNELS) ipcMain.removeHandler(ipcChannelName(channel));
  };
}
