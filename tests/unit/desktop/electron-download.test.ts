import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { zipSync } from 'fflate';

/**
 * `npm start` where the Electron binary is missing: scripts/start.mjs downloads it with
 * Electron's own installer (electron/install.js via @electron/get), then launches it; when the
 * download fails it falls back to serve mode, saying why and how to retry. Tested offline: the
 * installer honours ELECTRON_MIRROR, pointed here at a local HTTP server that serves a fake
 * Electron build (a shell script that prints its arguments).
 */
const root = resolve(__dirname, '../../..');
const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const zipName = `electron-v${electronVersion}-linux-x64.zip`;

/** A throwaway copy of the project's start scripts and its electron package, without dist/. */
function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'te-electron-'));
  cpSync(join(root, 'scripts'), join(dir, 'scripts'), { recursive: true });
  const electron = join(dir, 'node_modules/electron');
  mkdirSync(electron, { recursive: true });
  for (const file of ['package.json', 'install.js', 'index.js', 'cli.js', 'checksums.json']) {
    cpSync(join(root, 'node_modules/electron', file), join(electron, file));
  }
  for (const dep of ['@electron/get', '@electron-internal/extract-zip']) {
    mkdirSync(join(dir, 'node_modules', dep, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep));
  }
  // The serve-mode fallback runs the built CLI and opens the demo rollout.
  symlinkSync(join(root, 'out'), join(dir, 'out'));
  symlinkSync(join(root, 'resources'), join(dir, 'resources'));
  return dir;
}

function fakeElectronZip(): Uint8Array {
  const script = new TextEncoder().encode('#!/bin/sh\necho "FAKE ELECTRON $*"\n');
  const executable = { os: 3, attrs: 0o100755 << 16 };
  return zipSync({
    electron: [script, executable],
    version: [new TextEncoder().encode(`v${electronVersion}`), {}],
  });
}

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs start.mjs until it exits, or until `until` matches its output (then stops it). */
function runStart(project: string, env: NodeJS.ProcessEnv, until?: RegExp): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(project, 'scripts/start.mjs'), 'trace.pt'], {
      env: { ...process.env, ...env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: Run = { stdout: '', stderr: '', code: null };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`start.mjs did not finish: ${run.stdout}\n${run.stderr}`));
    }, 45_000);
    const check = () => {
      if (until && until.test(run.stdout)) child.kill('SIGTERM');
    };
    child.stdout.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString();
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      run.code = code;
      done(run);
    });
  });
}

describe.runIf(process.platform === 'linux' && process.arch === 'x64')(
  'npm start downloads Electron through its mirror setting',
  () => {
    const zip = fakeElectronZip();
    const sums = `${createHash('sha256').update(zip).digest('hex')} *${zipName}\n`;
    const requests: string[] = [];
    let serveZip = true;
    let server: Server;
    let mirror = '';
    const projects: string[] = [];

    beforeAll(async () => {
      server = createServer((req, res) => {
        requests.push(req.url ?? '');
        if (serveZip && req.url === `/v${electronVersion}/${zipName}`) res.end(zip);
        else if (serveZip && req.url === `/v${electronVersion}/SHASUMS256.txt`) res.end(sums);
        else res.writeHead(404).end('not here');
      });
      await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
      mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => {
      server.close();
      for (const dir of projects) rmSync(dir, { recursive: true, force: true });
    });

    const env = (project: string) => ({
      ELECTRON_MIRROR: mirror,
      electron_config_cache: join(project, 'electron-cache'),
      // The fake build is not in electron's checksums.json: check it against the mirror's sums.
      electron_use_remote_checksums: '1',
    });

    it('fetches the binary, then starts the desktop app with the files named', async () => {
      const project = makeProject();
      projects.push(project);
      requests.length = 0;
      serveZip = true;
      const run = await runStart(project, env(project));
      expect(requests).toContain(`/v${electronVersion}/${zipName}`);
      expect(run.stdout).toContain(`Downloading Electron ${electronVersion}`);
      expect(run.stdout).toContain(`FAKE ELECTRON ${project} trace.pt`);
      expect(run.stdout).not.toContain('serve mode');
      expect(run.code).toBe(0);
      // A second start finds the binary and downloads nothing.
      requests.length = 0;
      const again = await runStart(project, env(project));
      expect(requests).toEqual([]);
      expect(again.stdout).not.toContain('Downloading');
      expect(again.stdout).toContain(`FAKE ELECTRON ${project} trace.pt`);
    });

    it('falls back to serve mode when the download fails, saying why and how to retry', async () => {
      const project = makeProject();
      projects.push(project);
      requests.length = 0;
      serveZip = false;
      const run = await runStart(project, env(project), /serving on http:\/\/127\.0\.0\.1/);
      expect(requests).toContain(`/v${electronVersion}/${zipName}`);
      expect(run.stdout).toContain(
        "Cannot start the desktop app: Electron's installer failed (exit code 1)",
      );
      expect(run.stdout).toMatch(/404/);
      expect(run.stdout).toContain('To retry the download: npx install-electron');
      expect(run.stdout).toMatch(/Trace Explorer is serving on http:\/\/127\.0\.0\.1:\d+/);
      expect(run.stdout).not.toContain('FAKE ELECTRON');
    });
  },
);
