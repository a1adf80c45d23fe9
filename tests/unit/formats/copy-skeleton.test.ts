import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';
import { serveCaller } from '../../support/serve-call';

// "Adding a format" as docs/ARCHITECTURE.md tells a contributor, done for real: in a copy of the
// repository's sources, the skeleton folder is copied into a new format folder (its id renamed),
// one import and one list entry are added to registry.ts, and the build of that copy opens the
// new format's files through the CLI's summary, a folder's sniffing and serve mode (the ingest
// worker), with no other file changed.
const ROOT = resolve(__dirname, '../../..');
const SPANS = join(FIXTURES, 'skeleton/spans.jsonl');
const LONG = join(FIXTURES, 'skeleton/long_first_line.jsonl');
const COPIED = ['src-main', 'src-renderer', 'electron.vite.config.ts', 'package.json'];
const CONFIGS = readdirSync(ROOT).filter((name) => /^tsconfig.*\.json$/.test(name));
const COPIED_FILES = [...COPIED, ...CONFIGS];

let work: string;
let cli: string;
let server: ChildProcess | undefined;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files of the copy that are not byte for byte the repository's. */
function changedFiles(): string[] {
  return COPIED.flatMap((top) =>
    statSync(join(work, top)).isDirectory() ? filesUnder(join(work, top)) : [join(work, top)],
  )
    .map((path) => relative(work, path))
    .filter((path) => {
      try {
        return !readFileSync(join(ROOT, path)).equals(readFileSync(join(work, path)));
      } catch {
        return true;
      }
    })
    .sort();
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'te-new-format-'));
  for (const name of COPIED_FILES) cpSync(join(ROOT, name), join(work, name), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');

  // the contributor's steps: copy the folder, rename the id, add the registry line
  const formats = join(work, 'src-main/core/formats');
  cpSync(join(formats, 'skeleton'), join(formats, 'example-spans'), { recursive: true });
  const descriptor = join(formats, 'example-spans/descriptor.ts');
  writeFileSync(
    descriptor,
    readFileSync(descriptor, 'utf8').replace("id: 'skeleton'", "id: 'example-spans'"),
  );
  const registry = join(formats, 'registry.ts');
  const text = readFileSync(registry, 'utf8');
  const added = text
    .replace(
      /(import type \{ FormatDescriptor \} from '\.\/format-descriptor';\n)/,
      "$1import { skeletonFormat } from './example-spans/descriptor';\n",
    )
    .replace(
      /(export const FORMATS = \[\n[\s\S]*?)\] as const;/,
      '$1  skeletonFormat,\n] as const;',
    );
  expect(added.split('\n').length - text.split('\n').length).toBe(2);
  writeFileSync(registry, added);

  const build = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    { cwd: work, encoding: 'utf8' },
  );
  if (build.status !== 0)
    throw new Error(`the copy does not build:\n${build.stdout}\n${build.stderr}`);
  cli = join(work, 'out/main/cli.js');
}, 240_000);

afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) server.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

const run = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: work });

describe('a format added by copying the skeleton', () => {
  it('changes no file but its folder and the registry', () => {
    const changed = changedFiles();
    expect(
      changed.filter((path) => !path.startsWith('src-main/core/formats/example-spans/')),
    ).toEqual(['src-main/core/formats/registry.ts']);
    expect(changed).toContain('src-main/core/formats/example-spans/descriptor.ts');
  });

  it('opens through the built CLI’s summary, text and JSON', () => {
    const json = run('summary', '--json', SPANS);
    expect(json.status, json.stderr).toBe(0);
    // tests/fixtures/skeleton/README.md: 2 rows, 3 spans, 100-102 s, lines 3, 4 and 6 skipped
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: 'spans.jsonl',
      format: 'example-spans',
      rows: 2,
      spans: 3,
      skippedLines: 3,
      durationSec: 2,
    });
    const text = run('summary', SPANS);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('skeleton spans');
    // the repository's own build does not know it
    const plain = spawnSync(process.execPath, [join(ROOT, 'out/main/cli.js'), 'summary', SPANS], {
      encoding: 'utf8',
    });
    expect(plain.stderr).toContain('[open/unknown-format]');
  });

  it('is found in a folder by content, a 200 KB first line and a gzip one too', () => {
    const dir = join(work, 'folder');
    mkdirSync(dir);
    cpSync(LONG, join(dir, 'requests.log'));
    writeFileSync(join(dir, 'spans.jsonl.gz'), gzipSync(readFileSync(SPANS)));
    writeFileSync(join(dir, 'long.jsonl.gz'), gzipSync(readFileSync(LONG)));
    const result = run('summary', '--json', dir);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      files: { name: string; format: string; rows: number }[];
      skipped: unknown[];
    };
    expect(summary.files.map((f) => [f.name, f.format, f.rows])).toEqual([
      ['long.jsonl.gz', 'example-spans', 2],
      ['requests.log', 'example-spans', 2],
      ['spans.jsonl.gz', 'example-spans', 2],
    ]);
    expect(summary.skipped).toEqual([]);
  });

  it('opens in serve mode through the ingest worker and answers its rows', async () => {
    server = spawn(process.execPath, [cli, 'serve', '--port', '0', SPANS], { cwd: work });
    const url = await new Promise<URL>((found, failed) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
        if (match) found(new URL(match[1]));
      });
      server!.on('exit', (code) => failed(new Error(`serve exited with ${code}: ${out}`)));
    });
    const call = serveCaller(() => Number(url.port), url.searchParams.get('token')!);
    // initialFiles answers once the files named on the command line are open: the app's signal
    const initial = await call('initialFiles', []);
    expect(initial.body.result).toMatchObject({ errors: [], fileIds: [expect.any(String)] });
    const files = (await call('listFiles', [])).body.result as {
      fileId: string;
      format: string;
      rows: number;
    }[];
    expect(files.map((f) => [f.format, f.rows])).toEqual([['example-spans', 2]]);
    const rows = await call('getRows', [files[0].fileId, [0, 1]]);
    expect(
      (rows.body.result as { items: { name: string }[] }[]).map((r) => r.items.map((i) => i.name)),
    ).toEqual([['generate', 'decode'], ['generate']]);
  });
});
