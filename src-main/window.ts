import { BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './serve/content-security-policy';
import { secureWebPreferences } from './web-preferences';

export interface WindowBounds {
  width: number;
  height: number;
  x?: number;
  y?: number;
}

/** The one window: our renderer only, no navigation, no new windows, CSP on every response. */
export function createMainWindow(bounds: WindowBounds): BrowserWindow {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
      },
    });
  });
  // every permission refused but writing the clipboard, which Copy PNG (a picture of a view)
  // asks for: the page is only our renderer, and a write cannot read what the user copied
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(permission === 'clipboard-sanitized-write'),
  );

  const window = new BrowserWindow({
    ...bounds,
    minWidth: 900,
    minHeight: 560,
    show: false,
    title: 'Trace Explorer',
    backgroundColor: '#1b1d22',
    webPreferences: secureWebPreferences(join(__dirname, '../preload/preload.js')),
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  window.webContents.setWindowOpenHandler(({ url }) => {
    // Links the user clicked open in the system browser, and only http(s) ones.
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void window.loadFile(join(__dirname, '../renderer/index.html'));
  return window;
}
