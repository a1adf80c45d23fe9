import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { openTraceFigures, openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { trendFigures } from '../../../src-main/core/trends/trend-figures';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { SLIME, fixtureSource, readJson, slimeFixturesWithExpected } from '../../support/fixtures';

// What the trend workers build: openTraceFigures skips the store, and must give every figure
// openTraceFile gives; and a gzipped dump is a dump to `trends` as the plain one is.
const CLI = resolve(__dirname, '../../../out/main/cli.js');

describe('openTraceFigures (no store)', () => {
  for (const fixture of slimeFixturesWithExpected()) {
    it(`${fixture.name}: every trend figure as openTraceFile gives it`, () => {
      const input = { path: fixture.path, name: fixture.name };
      const whole = openTraceFile([fixtureSource(fixture.path)]);
      const figures = openTraceFigures([fixtureSource(fixture.path)]);
      expect(figures.rolloutId).toBe(whole.summary.rolloutId);
      expect([figures.rows.length, figures.samples.count]).toEqual([
        whole.rows.length,
        whole.samples.count,
      ]);
      expect(trendFigures({ ...input, ...figures })).toEqual(
        trendFigures({ ...input, ...whole, rolloutId: whole.summary.rolloutId }),
      );
    });
  }

  it('opens a gzipped dump as its content', () => {
    const path = resolve(SLIME, 'rollout_7.pt');
    const gz = bytesSource('rollout_7.pt.gz', gzipSync(readFileSync(path)));
    // 24 samples, rollout_id 7: tests/fixtures/slime/rollout_7_vs_8.compare.expected.json (a)
    const figures = openTraceFigures([gz]);
    expect([figures.rolloutId, figures.samples.count]).toEqual([7, 24]);
  });

  it("counts a gzipped dump's progress in the file's own bytes, ending at its size", () => {
    const plain = readFileSync(resolve(SLIME, 'rollout_7.pt'));
    const gz = bytesSource('rollout_7.pt.gz', gzipSync(plain));
    expect(gz.size).toBeLessThan(plain.length);
    const seen: number[] = [];
    openTraceFigures([gz], { onProgress: (p) => seen.push(p.bytesRead) });
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBe(gz.size);
    // a plain file's progress is its bytes, unscaled
    const plainSeen: number[] = [];
    openTraceFigures([bytesSource('rollout_7.pt', plain)], {
      onProgress: (p) => plainSeen.push(p.bytesRead),
    });
    expect(Math.max(...plainSeen)).toBe(plain.length);
  });
});

describe('trace-explorer trends with gzipped dumps', () => {
  let folder: string;

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run npm run build (npm test does)`);
    folder = mkdtempSync(join(tmpdir(), 'te-trends-gz-'));
    copyFileSync(resolve(SLIME, 'rollout_7.pt'), join(folder, 'rollout_7.pt'));
    writeFileSync(
      join(folder, 'rollout_8.pt.gz'),
      gzipSync(readFileSync(resolve(SLIME, 'rollout_8.pt'))),
    );
  });

  it('gives a .pt.gz dump its point, figures equal to `perf` of the plain dump', () => {
    const result = spawnSync(process.execPath, [CLI, 'trends', '--json', '--no-cache', folder], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    const trends = JSON.parse(result.stdout) as {
      points: { name: string; rolloutId: number; figures: Record<string, number> }[];
      skipped: unknown[];
      incomplete: unknown[];
    };
    expect(trends.points.map((p) => [p.name, p.rolloutId])).toEqual([
      ['rollout_7.pt', 7],
      ['rollout_8.pt.gz', 8],
    ]);
    expect([trends.skipped, trends.incomplete]).toEqual([[], []]);
    const gz = trends.points[1].figures;
    const perf = spawnSync(process.execPath, [CLI, 'perf', resolve(SLIME, 'rollout_8.pt')], {
      encoding: 'utf8',
    });
    for (const [key, value] of Object.entries(JSON.parse(perf.stdout) as Record<string, number>))
      expect(gz[key], key).toBe(value);
    // rollout 8: 24 samples, reward mean as numpy gives it (rollout_7_vs_8.compare.expected.json b)
    const want = readJson<{ b: { samples: number; reward: { mean: number } } }>(
      resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'),
    ).b;
    expect(gz['rollout/samples']).toBe(want.samples);
    expect(gz['reward/mean']).toBeCloseTo(want.reward.mean, 12);
  });
});
