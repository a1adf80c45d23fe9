import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FolderWalk } from '../../../src-main/ingest/folder-walk';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { groupPaths, MAX_FOLDER_TABS } from '../../../src-main/ingest/group-files';

/**
 * Issue 49, finding 9 (and the bound of finding 2): folders whose links loop or lead outside,
 * and a folder with a broken file. Generators: each folder is written here.
 */
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const base = mkdtempSync(join(tmpdir(), 'te-folders-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A one-slice Chrome trace named `name` in `dir`. */
function chromeTrace(dir: string, name: string, sliceName = 'work') {
  const events = [{ name: sliceName, ph: 'X', ts: 0, dur: 5, pid: 1, tid: 1 }];
  writeFileSync(join(dir, name), JSON.stringify({ traceEvents: events }));
}

function folder(name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('folders that cannot trap the app (issue 49, finding 9)', () => {
  it('a run folder with 20 links to itself lists each file once', () => {
    const dir = folder('loop');
    for (const name of ['a.json', 'b.json', 'c.json']) chromeTrace(dir, name);
    for (let i = 0; i < 20; i++) symlinkSync('.', join(dir, `self${i}`));
    const sub = folder('loop/sub');
    chromeTrace(sub, 'd.json');
    symlinkSync('..', join(sub, 'up'));
    const found = findRunFiles([dir]);
    expect(found.groups.flat().sort()).toEqual(
      ['a.json', 'b.json', 'c.json', 'sub/d.json'].map((n) => join(dir, n)),
    );
    const loops = found.skipped.filter((s) => /the same folder as/.test(s.reason));
    expect(loops).toHaveLength(21);
  });

  it('a link to a place outside the named folder is skipped, never walked', () => {
    const outside = folder('outside');
    chromeTrace(outside, 'secret.json');
    const dir = folder('with-escape');
    chromeTrace(dir, 'mine.json');
    symlinkSync(outside, join(dir, 'etc'));
    symlinkSync(join(outside, 'secret.json'), join(dir, 'secret.json'));
    const run = findRunFiles([dir]);
    expect(run.groups).toEqual([[join(dir, 'mine.json')]]);
    const grouped = groupPaths([dir]);
    expect(grouped.groups).toEqual([[join(dir, 'mine.json')]]);
    for (const skipped of [run.skipped, grouped.skipped]) {
      expect(skipped.map((s) => s.reason).sort()).toEqual([
        'a link to a place outside the named folder',
        'a link to a place outside the named folder',
      ]);
    }
  });

  it('a second link to a file inside the folder opens it once; a dangling link is skipped', () => {
    const dir = folder('twice');
    chromeTrace(dir, 'a.json');
    symlinkSync(join(dir, 'a.json'), join(dir, 'b.json'));
    symlinkSync(join(dir, 'gone.json'), join(dir, 'c.json'));
    const grouped = groupPaths([dir]);
    expect(grouped.groups).toEqual([[join(dir, 'a.json')]]);
    expect(grouped.skipped).toEqual([
      {
        path: join(dir, 'b.json'),
        reason: `the same file as ${join(dir, 'a.json')} (listed once)`,
      },
      { path: join(dir, 'c.json'), reason: 'a link to nothing' },
    ]);
  });

  it('past the bound on files, the rest is one skipped line with a coded reason', () => {
    const dir = folder('many');
    for (let i = 0; i < 12; i++) chromeTrace(dir, `t${String(i).padStart(2, '0')}.json`);
    const entries = new FolderWalk(dir, 10).entries(dir, 0);
    expect(entries.filter((e) => e.kind === 'file')).toHaveLength(10);
    const skipped = entries.filter((e) => e.kind === 'skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ path: dir });
    expect(skipped[0].kind === 'skipped' && skipped[0].reason).toMatch(
      /more than 10 files.*\[io\/too-many-files\]/,
    );
  });

  it('the app opens at most MAX_FOLDER_TABS traces of a folder, and says so with a code', () => {
    const dir = folder('tabs');
    for (let i = 0; i < 12; i++) chromeTrace(dir, `t${String(i).padStart(2, '0')}.json`);
    const grouped = groupPaths([dir], { maxTraces: 10 });
    expect(grouped.groups).toEqual(
      Array.from({ length: 10 }, (_, i) => [join(dir, `t${String(i).padStart(2, '0')}.json`)]),
    );
    expect(grouped.skipped).toEqual([
      {
        path: dir,
        reason:
          "holds 12 traces: the first 10 by name open, the rest not (name a smaller folder, or read it with the command line's summary or sql) [io/too-many-files]",
      },
    ]);
    // the command line reads every one, a file at a time
    expect(groupPaths([dir]).groups).toHaveLength(12);
    expect(MAX_FOLDER_TABS).toBe(1000);
  });

  it('summary of a folder with a truncated file lists the good traces and its coded error', () => {
    const dir = folder('one-broken');
    chromeTrace(dir, 'good1.json', 'first');
    chromeTrace(dir, 'good2.json', 'second');
    writeFileSync(join(dir, 'cut.json'), '{"traceEvents":[{"name":"x","ph":"X","ts":0,');
    const text = spawnSync(process.execPath, [CLI, 'summary', dir], { encoding: 'utf8' });
    expect(text.status, text.stderr).toBe(1);
    expect(text.stdout).toMatch(/^file {6}good1\.json/m);
    expect(text.stdout).toMatch(/^file {6}good2\.json/m);
    expect(text.stdout).toMatch(/^failed {4}cut\.json: .+ \[[a-z-]+\/[a-z-]+\]$/m);
    const json = spawnSync(process.execPath, [CLI, 'summary', '--json', dir], {
      encoding: 'utf8',
    });
    const parsed = JSON.parse(json.stdout) as {
      files: { name: string }[];
      failed: { path: string; code: string }[];
    };
    expect(parsed.files.map((f) => f.name)).toEqual(['good1.json', 'good2.json']);
    expect(parsed.failed.map((f) => f.path)).toEqual([join(dir, 'cut.json')]);
    expect(parsed.failed[0].code).toMatch(/^[a-z-]+\/[a-z-]+$/);
  });
});
