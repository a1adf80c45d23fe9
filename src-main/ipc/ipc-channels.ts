// The Electron IPC channels of the TraceApi, named once for both ends: the router in main
// (ipc/trace-router.ts) and the preload (preload/preload.ts). No electron import: the preload
// bundles this file.

/** renderer -> main: one TraceApi call (method, args), answered by invoke */
export const TRACE_CALL_CHANNEL = 'trace:call';
/** main -> renderer: OpenProgress events */
export const TRACE_PROGRESS_CHANNEL = 'trace:progress';
/** main -> renderer: HostEvent (files opened by main, menu commands) */
export const TRACE_HOST_EVENT_CHANNEL = 'trace:host-event';
