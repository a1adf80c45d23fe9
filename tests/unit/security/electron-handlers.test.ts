import { describe, expect, it, vi } from 'vitest';
import type { TraceApi } from '../../../src-main/core/api/trace-api';
import { TRACE_API_METHODS } from '../../../src-main/core/api/trace-api';
import {
  TRACE_CALL_CHANNEL,
  TRACE_HOST_EVENT_CHANNEL,
  TRACE_PROGRESS_CHANNEL,
} from '../../../src-main/ipc/ipc-channels';
import { CONTENT_SECURITY_POLICY } from '../../../src-main/serve/content-security-policy';
import { secureWebPreferences } from '../../../src-main/web-preferences';
import { FakeBrowserWindow, recorded, shell } from './electron-fake';

// The window's, the IPC router's and the preload's security behaviour, exercised through the
// handlers they install (issue 22: these were checked by grepping the source). Electron itself
// is replaced by a recorder (electron-fake.ts); everything else is the app's code.
vi.mock('electron', async () => (await import('./electron-fake')).electronFake);

const { createMainWindow } = await import('../../../src-main/window');
const { routeTraceApi } = await import('../../../src-main/ipc/trace-router');

type Handler = (...args: unknown[]) => unknown;

describe('the main window', () => {
  const window = createMainWindow({ width: 1200, height: 800 }) as unknown as FakeBrowserWindow;
  const contents = window.webContents;

  it('is made with the secure webPreferences and loads our own page', () => {
    expect(window.options.webPreferences).toEqual(
      secureWebPreferences((window.options.webPreferences as { preload: string }).preload),
    );
    expect((window.options.webPreferences as { preload: string }).preload).toMatch(
      /\/preload\/preload\.js$/,
    );
    expect(window.loaded).toMatch(/\/renderer\/index\.html$/);
  });

  it('cancels every navigation', () => {
    const event = { preventDefault: vi.fn() };
    (contents.listeners.get('will-navigate') as Handler)(event, 'https://example.com/');
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
  });

  it('denies every new window; only http(s) links go to the system browser', () => {
    const open = contents.windowOpenHandler as Handler;
    shell.openExternal.mockClear();
    expect(open({ url: 'https://github.com/THUDM/slime' })).toEqual({ action: 'deny' });
    expect(open({ url: 'http://127.0.0.1:8000/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([
      ['https://github.com/THUDM/slime'],
      ['http://127.0.0.1:8000/'],
    ]);
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'x https://a',
    ])
      expect(open({ url }), url).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledTimes(2);
  });

  it('puts our CSP on every response, replacing none of the other headers', () => {
    const callback = vi.fn();
    (recorded.headersHandler as Handler)(
      { responseHeaders: { 'content-type': ['text/html'] } },
      callback,
    );
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: {
        'content-type': ['text/html'],
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });

  it('refuses every permission request but the clipboard write Copy PNG needs', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      const callback = vi.fn();
      (recorded.permissionHandler as Handler)({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    const callback = vi.fn();
    (recorded.permissionHandler as Handler)({}, 'clipboard-sanitized-write', callback);
    expect(callback).toHaveBeenCalledWith(true);
  });
});

describe('the IPC router checks who calls', () => {
  const window = new FakeBrowserWindow({});
  const calls: unknown[][] = [];
  let progressListener: ((p: unknown) => void) | null = null;
  const api = {
    listFiles: (...args: unknown[]) => {
      calls.push(args);
      return Promise.resolve([]);
    },
    onProgress: (listener: (p: unknown) => void) => {
      progressListener = listener;
      return () => (progressListener = null);
    },
    onHostEvent: () => () => undefined,
  } as unknown as TraceApi;
  const stop = routeTraceApi(api, window as never);
  const handler = recorded.ipcHandlers.get(TRACE_CALL_CHANNEL) as Handler;
  const trusted = () => ({ sender: window.webContents, senderFrame: window.webContents.mainFrame });

  it('answers our window’s main frame on our file:// page', async () => {
    await expect(handler(trusted(), 'listFiles', [])).resolves.toEqual([]);
    expect(calls).toEqual([[]]);
  });

  it('refuses another sender, a sub-frame, a page not ours, and a destroyed window', () => {
    const other = new FakeBrowserWindow({});
    expect(() =>
      handler(
        { sender: other.webContents, senderFrame: other.webContents.mainFrame },
        'listFiles',
        [],
      ),
    ).toThrow('untrusted sender');
    // each check on its own: another sender even with our frame, our sender with another frame
    expect(() =>
      handler(
        { sender: other.webContents, senderFrame: window.webContents.mainFrame },
        'listFiles',
        [],
      ),
    ).toThrow('untrusted sender');
    expect(() =>
      handler(
        { sender: window.webContents, senderFrame: { url: 'file:///app/index.html' } },
        'listFiles',
        [],
      ),
    ).toThrow('untrusted sender');
    expect(() =>
      handler({ sender: window.webContents, senderFrame: null }, 'listFiles', []),
    ).toThrow('untrusted sender');
    window.webContents.mainFrame.url = 'https://evil.example/';
    expect(() => handler(trusted(), 'listFiles', [])).toThrow('untrusted sender');
    window.webContents.mainFrame.url = 'file:///app/out/renderer/index.html';
    window.destroyed = true;
    expect(() => handler(trusted(), 'listFiles', [])).toThrow('untrusted sender');
    window.destroyed = false;
    expect(calls).toEqual([[]]);
  });

  it('validates the call: a bad method or arguments never reach the service', async () => {
    await expect(handler(trusted(), 'constructor', [])).rejects.toThrow(
      'unknown method constructor',
    );
    await expect(handler(trusted(), 'listFiles', [1])).rejects.toThrow(
      'listFiles takes 0 arguments',
    );
    expect(calls).toEqual([[]]);
  });

  it('forwards progress to the window until stopped, then removes its handler', () => {
    progressListener!({ phase: 'reading' });
    expect(window.webContents.sent).toEqual([[TRACE_PROGRESS_CHANNEL, { phase: 'reading' }]]);
    stop();
    expect(recorded.ipcHandlers.has(TRACE_CALL_CHANNEL)).toBe(false);
    expect(progressListener).toBeNull();
  });
});

describe('the preload', () => {
  it('exposes the TraceApi methods, progress and host events, and a path for a dropped file', async () => {
    await import('../../../src-main/preload/preload');
    expect([...recorded.exposed.keys()]).toEqual(['traceApi', 'traceHost']);
    const api = recorded.exposed.get('traceApi')!;
    expect(Object.keys(api).sort()).toEqual(
      [...TRACE_API_METHODS, 'onProgress', 'onHostEvent'].sort(),
    );
    await expect((api.open as Handler)({ openId: 'x' })).resolves.toBe('answer');
    expect(recorded.invoked).toEqual([[TRACE_CALL_CHANNEL, 'open', [{ openId: 'x' }]]]);
    const seen: unknown[] = [];
    const off = (api.onHostEvent as Handler)((event: unknown) => seen.push(event)) as () => void;
    const listener = recorded.rendererListeners.get(TRACE_HOST_EVENT_CHANNEL)![0] as Handler;
    listener({ sender: 'ignored' }, { type: 'command', command: 'open' });
    expect(seen).toEqual([{ type: 'command', command: 'open' }]);
    off();
    expect(recorded.rendererListeners.get(TRACE_HOST_EVENT_CHANNEL)).toEqual([]);
    const host = recorded.exposed.get('traceHost')!;
    expect(host.kind).toBe('electron');
    expect((host.pathForFile as Handler)({ name: 'a.pt' })).toBe('/dropped/a.pt');
  });
});
