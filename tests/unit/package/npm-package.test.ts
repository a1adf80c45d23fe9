import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';
import { serveCaller } from '../../support/serve-call';

// The npm package as a user on a GPU box gets it: `npm pack` of the built repository (package.json
// `files`: out/, resources/, with README and LICENSE), installed from the tarball into an empty
// folder (fflate from the npm cache when it is there), and its `trace-explorer` run.
const ROOT = resolve(__dirname, '../../..');
const FIXTURE = join(FIXTURES, 'chrome/torch_profiler_train_cpu.json');
const MAX_TARBALL_BYTES = 5 * 1024 * 1024;

let work: string;
let tarball: string;
let packed: { path: string }[];
let bin: string;
let server: ChildProcess | undefined;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'te-npm-package-'));
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [result] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, result.filename);
  packed = result.files;
  const install = join(work, 'install');
  mkdirSync(install);
  const installed = spawnSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
    { cwd: install, encoding: 'utf8' },
  );
  if (installed.status !== 0) throw new Error(`npm install failed:\n${installed.stderr}`);
  bin = join(install, 'node_modules/.bin/trace-explorer');
}, 240_000);

afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) server.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds only what runs, under 5 MB', () => {
    expect(statSync(tarball).size).toBeLessThan(MAX_TARBALL_BYTES);
    const paths = packed.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    expect(paths).toContain('out/main/cli.js');
    expect(paths).toContain('out/renderer/index.html');
    expect(paths).toContain('resources/demo/rollout_demo.pt');
    const others = paths.filter(
      (path) =>
        !/^(out|resources)\//.test(path) &&
        !['package.json', 'README.md', 'LICENSE'].includes(path),
    );
    expect(others).toEqual([]);
    expect(paths.some((path) => path.endsWith('.map'))).toBe(false);
  });

  it('installs into an empty folder and runs summary on a fixture', () => {
    expect(existsSync(bin)).toBe(true);
    const result = spawnSync(bin, ['summary', '--json', FIXTURE], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    // tests/fixtures/chrome/README.md: 1087 X events as spans on one row
    expect(JSON.parse(result.stdout)).toMatchObject({
      format: 'chrome-trace',
      rows: 1,
      spans: 1087,
    });
  });

  it('serves: the first answer over HTTP with its token', async () => {
    server = spawn(bin, ['serve', '--port', '0', FIXTURE]);
    const url = await new Promise<URL>((found, failed) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
        if (match) found(new URL(match[1]));
      });
      server!.on('exit', (code) => failed(new Error(`serve exited with ${code}: ${out}`)));
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const call = serveCaller(() => Number(url.port), url.searchParams.get('token')!);
    const initial = await call('initialFiles', []);
    expect(initial.status).toBe(200);
    expect(initial.body.result).toMatchObject({ errors: [], fileIds: [expect.any(String)] });
    const denied = await fetch(new URL('/api/call', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace-token': 'wrong' },
      body: JSON.stringify({ method: 'listFiles', args: [] }),
    });
    expect(denied.status).toBe(403);
  });
});
