import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../src-main/web-preferences';
import { CONTENT_SECURITY_POLICY } from '../../../src-main/serve/content-security-policy';

const root = resolve(__dirname, '../../..');

describe('window security', () => {
  it('isolates the renderer: contextIsolation, sandbox, no node integration anywhere', () => {
    const prefs = secureWebPreferences('/x/preload.js');
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('window.ts uses those preferences, denies navigation and new windows', () => {
    const source = readFileSync(resolve(root, 'src-main/window.ts'), 'utf8');
    expect(source).toContain('secureWebPreferences(');
    expect(source).toMatch(/will-navigate[^\n]*preventDefault/);
    expect(source).toMatch(/setWindowOpenHandler[\s\S]*action: 'deny'/);
    expect(source).toMatch(/https\?[^\n]*openExternal/);
  });

  it('has a strict CSP: only our scripts, no eval, no remote connections', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('index.html carries the same script and connect rules as a meta CSP', () => {
    const html = readFileSync(resolve(root, 'src-renderer/index.html'), 'utf8');
    const meta = html.match(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)?.[1] ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "object-src 'none'"]) {
      expect(meta).toContain(directive);
    }
  });

  it('the preload exposes the TraceApi methods and nothing else', () => {
    const source = readFileSync(resolve(root, 'src-main/preload/preload.ts'), 'utf8');
    const exposed = [...source.matchAll(/exposeInMainWorld\('([^']+)'/g)].map((m) => m[1]);
    expect(exposed).toEqual(['traceApi', 'traceHost']);
    expect(source).not.toMatch(/ipcRenderer\.(send|sendSync)\(/);
  });
});
