import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { TRACE_API_METHODS, type HostEvent, type OpenProgress } from '../core/api/trace-api';
import {
  TRACE_CALL_CHANNEL as CALL,
  TRACE_HOST_EVENT_CHANNEL as HOST_EVENT,
  TRACE_PROGRESS_CHANNEL as PROGRESS,
} from '../ipc/ipc-channels';

// The preload exposes the TraceApi methods and nothing else (plus the path of a dropped
// File, which only the preload can ask Electron for).

const api: Record<string, unknown> = {};
for (const method of TRACE_API_METHODS) {
  api[method] = (...args: unknown[]) => ipcRenderer.invoke(CALL, method, args);
}
api.onProgress = (listener: (progress: OpenProgress) => void) => {
  const wrapped = (_event: unknown, progress: OpenProgress) => listener(progress);
  ipcRenderer.on(PROGRESS, wrapped);
  return () => ipcRenderer.removeListener(PROGRESS, wrapped);
};

api.onHostEvent = (listener: (event: HostEvent) => void) => {
  const wrapped = (_event: unknown, hostEvent: HostEvent) => listener(hostEvent);
  ipcRenderer.on(HOST_EVENT, wrapped);
  return () => ipcRenderer.removeListener(HOST_EVENT, wrapped);
};

contextBridge.exposeInMainWorld('traceApi', api);
contextBridge.exposeInMainWorld('traceHost', {
  kind: 'electron',
  pathForFile: (file: File): string => webUtils.getPathForFile(file),
});
