import { vi } from 'vitest';

/**
 * What the tests need of Electron's main and preload modules, recorded so the handlers the app
 * installs can be called: the Electron binary cannot run here, the handlers themselves can.
 */
type Listener = (...args: never[]) => unknown;

export const recorded = {
  windows: [] as FakeBrowserWindow[],
  headersHandler: null as Listener | null,
  permissionHandler: null as Listener | null,
  ipcHandlers: new Map<string, Listener>(),
  exposed: new Map<string, Record<string, unknown>>(),
  invoked: [] as unknown[][],
  rendererListeners: new Map<string, Listener[]>(),
};

export class FakeWebContents {
  readonly listeners = new Map<string, Listener>();
  windowOpenHandler: Listener | null = null;
  readonly sent: [string, unknown][] = [];
  mainFrame = { url: 'file:///app/out/renderer/index.html' };
  on(event: string, listener: Listener) {
    this.listeners.set(event, listener);
  }
  setWindowOpenHandler(handler: Listener) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
}

export class FakeBrowserWindow {
  readonly webContents = new FakeWebContents();
  destroyed = false;
  loaded: string | null = null;
  constructor(readonly options: Record<string, unknown>) {
    recorded.windows.push(this);
  }
  once() {}
  isDestroyed() {
    return this.destroyed;
  }
  loadFile(path: string) {
    this.loaded = path;
    return Promise.resolve();
  }
}

export const shell = { openExternal: vi.fn(() => Promise.resolve()) };

export const electronFake = {
  BrowserWindow: FakeBrowserWindow,
  shell,
  session: {
    defaultSession: {
      webRequest: {
        onHeadersReceived: (handler: Listener) => (recorded.headersHandler = handler),
      },
      setPermissionRequestHandler: (handler: Listener) => (recorded.permissionHandler = handler),
    },
  },
  ipcMain: {
    handle: (channel: string, handler: Listener) => recorded.ipcHandlers.set(channel, handler),
    removeHandler: (channel: string) => recorded.ipcHandlers.delete(channel),
  },
  contextBridge: {
    exposeInMainWorld: (key: string, value: Record<string, unknown>) =>
      recorded.exposed.set(key, value),
  },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      recorded.invoked.push(args);
      return Promise.resolve('answer');
    },
    on: (channel: string, listener: Listener) =>
      recorded.rendererListeners.set(channel, [
        ...(recorded.rendererListeners.get(channel) ?? []),
        listener,
      ]),
    removeListener: (channel: string, listener: Listener) =>
      recorded.rendererListeners.set(
        channel,
        (recorded.rendererListeners.get(channel) ?? []).filter((l) => l !== listener),
      ),
  },
  webUtils: { getPathForFile: (file: { name: string }) => `/dropped/${file.name}` },
};
