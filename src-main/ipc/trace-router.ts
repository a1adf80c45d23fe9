import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { TraceApi } from '../core/api/trace-api';
import { dispatchCall } from '../api/dispatch-call';
import {
  TRACE_CALL_CHANNEL,
  TRACE_HOST_EVENT_CHANNEL,
  TRACE_PROGRESS_CHANNEL,
} from './ipc-channels';

/**
 * TraceApi over IPC: one invoke channel; every call checks that it comes from our window's
 * main frame with our own file:// page, then validates its arguments (dispatchCall).
 */
export function routeTraceApi(api: TraceApi, window: BrowserWindow): () => void {
  const handler = (event: IpcMainInvokeEvent, method: unknown, args: unknown) => {
    if (!isTrustedSender(event, window)) throw new Error('untrusted sender');
    return dispatchCall(api, method, args);
  };
  ipcMain.handle(TRACE_CALL_CHANNEL, handler);
  const off = api.onProgress((progress) => {
    if (!window.isDestroyed()) window.webContents.send(TRACE_PROGRESS_CHANNEL, progress);
  });
  const offHost = api.onHostEvent((event) => {
    if (!window.isDestroyed()) window.webContents.send(TRACE_HOST_EVENT_CHANNEL, event);
  });
  return () => {
    ipcMain.removeHandler(TRACE_CALL_CHANNEL);
    off();
    offHost();
  };
}

function isTrustedSender(event: IpcMainInvokeEvent, window: BrowserWindow): boolean {
  if (window.isDestroyed() || event.sender !== window.webContents) return false;
  const frame = event.senderFrame;
  return (
    frame !== null && frame === window.webContents.mainFrame && frame.url.startsWith('file://')
  );
}
