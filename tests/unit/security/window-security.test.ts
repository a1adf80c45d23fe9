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
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
    ]) {
      expect(meta).toContain(directive);
    }
  });

  // the window's, the IPC router's and the preload's handlers: electron-handlers.test.ts
});
