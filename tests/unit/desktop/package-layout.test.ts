import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// electron-builder's own dependency: the asar reader it packs with
import { listPackage, statFile } from '@electron/asar';

/**
 * The desktop package as electron-builder makes it (issue 49): `electron-builder --dir` with a
 * stand-in Electron distribution (this machine has no Electron binary; TOOLCHAIN.md item 8),
 * then app.asar listed. Needs `npm run build` first (npm test builds).
 */
const ROOT = resolve(__dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'te-package-'));
const appDir = join(work, 'out', 'linux-unpacked');
let listing: string[] = [];
let unpacked: string[] = [];

/** Every file under `dir`, relative to it, with forward slashes. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}

/** The packaged dependencies and theirs, as installed (optional ones only where installed). */
function productionDependencies(): string[] {
  const seen = new Set<string>();
  const visit = (packageJson: string) => {
    const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const next = join(ROOT, 'node_modules', name, 'package.json');
      if (seen.has(name) || !existsSync(next)) continue;
      seen.add(name);
      visit(next);
    }
  };
  visit(join(ROOT, 'package.json'));
  return [...seen];
}

beforeAll(() => {
  // shaped like Electron's dist for Linux: its executable, version and licences
  const dist = join(work, 'electron-dist');
  mkdirSync(join(dist, 'resources'), { recursive: true });
  writeFileSync(join(dist, 'electron'), '#!/bin/sh\n');
  chmodSync(join(dist, 'electron'), 0o755);
  const electronVersion = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  writeFileSync(join(dist, 'version'), electronVersion);
  writeFileSync(join(dist, 'LICENSE'), '');
  writeFileSync(join(dist, 'LICENSES.chromium.html'), '');
  const built = spawnSync(
    join(ROOT, 'node_modules/.bin/electron-builder'),
    [
      '--dir',
      '--linux',
      `-c.electronDist=${dist}`,
      `-c.electronVersion=${electronVersion}`,
      `-c.directories.output=${join(work, 'out')}`,
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 170_000 },
  );
  if (built.status !== 0)
    throw new Error(`electron-builder failed:\n${built.stdout}\n${built.stderr}`);
  listing = listPackage(join(appDir, 'resources/app.asar'), { isPack: false }).map((p) =>
    p.split('\\').join('/').replace(/^\//, ''),
  );
  unpacked = filesUnder(join(appDir, 'resources'));
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the desktop package (electron-builder --dir)', () => {
  it('app.asar holds main, preload and the renderer', () => {
    for (const path of ['out/main/main.js', 'out/preload/preload.js', 'out/renderer/index.html'])
      expect(listing, path).toContain(path);
    expect(listing.some((p) => /^out\/renderer\/.+\.js$/.test(p))).toBe(true);
  });

  it('every worker chunk main refers to is in app.asar, where main looks for it', () => {
    const mainFiles = listing.filter((p) => /^out\/main\/.+\.js$/.test(p));
    const workers: string[] = [];
    for (const file of mainFiles) {
      const code = readFileSync(join(ROOT, file), 'utf8');
      for (const m of code.matchAll(/new URL\("(\.{1,2}\/[^"]+\.js)"/g))
        workers.push(posix.normalize(posix.join(posix.dirname(file), m[1])));
    }
    // ingest, range and trend workers at least
    expect(workers.length).toBeGreaterThanOrEqual(3);
    for (const worker of workers) expect(listing, worker).toContain(worker);
  });

  it('the demo rollout is a resource beside app.asar', () => {
    const demo = filesUnder(join(ROOT, 'resources/demo')).filter((p) => p.endsWith('.pt'));
    expect(demo.length).toBeGreaterThan(0);
    for (const name of demo) expect(unpacked).toContain(`demo/${name}`);
  });

  it('holds no sources, tests or source maps', () => {
    const bad = listing.filter(
      (p) =>
        /^(src-main|src-renderer|tests|scripts|docs)\//.test(p) ||
        (/\.(ts|tsx|map)$/.test(p) && !p.endsWith('.d.ts')),
    );
    expect(bad).toEqual([]);
  });

  it('every native binding (.node) of the packaged dependencies is unpacked, none inside the asar', () => {
    // the asar's header lists unpacked files too, marked as such: each binding must be marked,
    // and be on disk beside the asar (a .node file loads only from disk)
    const archive = join(appDir, 'resources/app.asar');
    const bindingsListed = listing.filter((p) => p.endsWith('.node'));
    const packed = bindingsListed.filter((p) => {
      const entry = statFile(archive, p) as { unpacked?: boolean };
      return entry.unpacked !== true;
    });
    expect(packed).toEqual([]);
    for (const binding of bindingsListed)
      expect(unpacked).toContain(`app.asar.unpacked/${binding}`);
    // each binding a packaged dependency ships, or a dependency of one (DuckDB's binding is in
    // @duckdb/node-bindings-linux-x64, a dependency of @duckdb/node-api; @napi-rs/canvas's in its
    // platform package, an optional dependency), must be unpacked
    const shipped = productionDependencies();
    expect(shipped).toContain('@duckdb/node-api');
    let bindingsFound = 0;
    for (const name of shipped) {
      const folder = join(ROOT, 'node_modules', name);
      let bindings: string[] = [];
      try {
        bindings = filesUnder(folder).filter((p) => p.endsWith('.node'));
      } catch {
        continue;
      }
      bindingsFound += bindings.length;
      for (const binding of bindings)
        expect(unpacked, `${name}/${binding}`).toContain(
          `app.asar.unpacked/node_modules/${name}/${binding}`,
        );
    }
    // DuckDB's binding at least (on this platform)
    expect(bindingsFound).toBeGreaterThanOrEqual(1);
    expect(
      unpacked.some((p) => /^app\.asar\.unpacked\/node_modules\/@duckdb\/.+\.node$/.test(p)),
    ).toBe(true);
  });
});
