import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TrendCache, fileStamp } from '../../../src-main/trends/trend-cache';
import type { TrendPoint } from '../../../src-main/core/model/trend';
import { SLIME } from '../../support/fixtures';

/**
 * Issue 49, finding 6: the trends cache is an input like any other. Its entries are checked
 * (types, ranges) before use; NaN and infinities survive it; it is keyed by the whole content.
 */
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const base = mkdtempSync(join(tmpdir(), 'te-trends-hostile-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let folder: string;
let cacheDir: string;
let dump: string;
beforeEach(() => {
  rmSync(base, { recursive: true, force: true });
  folder = join(base, 'run');
  cacheDir = join(base, 'cache');
  mkdirSync(folder, { recursive: true });
  dump = join(folder, 'rollout_7.pt');
  copyFileSync(join(SLIME, 'rollout_7.pt'), dump);
});

type Trends = {
  points: { name: string; figures: Record<string, number | null> }[];
  cached: number;
};
const trends = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'trends', ...args, folder], {
    encoding: 'utf8',
    env: { ...process.env, TRACE_EXPLORER_CACHE_DIR: cacheDir },
  });
const trendsJson = () => {
  const result = trends('--json');
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Trends;
};
/** where the cache keeps the entry of `path` (trend-cache.ts: a hash of the path) */
const entryOf = (path: string) =>
  join(cacheDir, `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.json`);
const editEntry = (edit: (entry: { point: { figures: Record<string, unknown> } }) => void) => {
  const entry = JSON.parse(readFileSync(entryOf(dump), 'utf8')) as {
    point: { figures: Record<string, unknown> };
  };
  edit(entry);
  writeFileSync(entryOf(dump), JSON.stringify(entry));
};

describe('the trends cache as an input (issue 49, finding 6)', () => {
  it('keeps NaN and infinities as such, and later runs show them', async () => {
    const cache = new TrendCache(cacheDir);
    const stamp = await fileStamp(dump);
    const point: TrendPoint = {
      path: dump,
      name: 'rollout_7.pt',
      series: 'rollout',
      rolloutId: 7,
      figures: {
        'reward/mean': NaN,
        'reward/std': Infinity,
        'perf/x': -Infinity,
        'rollout/samples': 3,
      },
    };
    cache.set(dump, stamp, point);
    expect(cache.get(dump, stamp)).toEqual(point);
    const text = trends();
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^rollout_7\.pt\s+rollout\s+7\s+3\s.*\sNaN\s+Infinity\s/m);
    expect(text.stdout).toContain('(1 of 1 from the cache)');
  });

  it('an entry with a string figure (markup), null or a wrong type is not used: the file is read', () => {
    const fresh = trendsJson();
    expect(fresh.cached).toBe(0);
    for (const bad of ['<img src=x onerror=alert(1)>', null, { a: 1 }, [1], '12']) {
      editEntry((entry) => (entry.point.figures['reward/mean'] = bad));
      const again = trendsJson();
      expect(again.cached, JSON.stringify(bad)).toBe(0);
      expect(again.points).toEqual(fresh.points);
    }
    editEntry((entry) => ((entry.point as unknown as { rolloutId: unknown }).rolloutId = 'x'));
    expect(trendsJson().cached).toBe(0);
    expect(trendsJson().cached).toBe(1); // rewritten by the read: a good entry again
  });

  it('a dump rewritten at the same size, first 64 KiB and mtime is read again', () => {
    expect(trendsJson().cached).toBe(0);
    expect(trendsJson().cached).toBe(1);
    const { atime, mtime, size } = statSync(dump);
    const bytes = readFileSync(dump);
    expect(size).toBeGreaterThan(70_000);
    bytes[size - 30] ^= 0xff; // in the ZIP's end records: the same length, other content
    writeFileSync(dump, bytes);
    utimesSync(dump, atime, mtime);
    const after = trends('--json');
    const result = JSON.parse(after.stdout) as Trends & { incomplete: unknown[] };
    expect(result.cached).toBe(0);
  });
});
