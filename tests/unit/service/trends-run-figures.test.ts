import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceService, type TrendsRunner } from '../../../src-main/api/trace-service';
import type { HostEvent } from '../../../src-main/core/api/trace-api';
import { FORMATS, holdsRolloutSamples } from '../../../src-main/core/formats/registry';
import type { TrendFileProgress, TrendsResult } from '../../../src-main/core/model/trend';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { trendFigures } from '../../../src-main/core/trends/trend-figures';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { sniffPath } from '../../../src-main/ingest/sniff-path';
import { expectClose } from '../../support/expect-close';
import { fixtureSource } from '../../support/fixtures';
import { ingestInThread } from '../../support/in-thread-ingest';
import {
  RUN,
  RUN_EXTRA,
  RUN_FIGURE_FILES,
  expectExpectedExtra,
} from '../../support/run-extra-expected';

// openTrends, as the app's trends view and serve mode ask it, on the run with run_extra's train
// dumps and request metrics: each rollout's figures are `trends RUN --json`'s (the CLI's own
// computation, run through the built CLI) and expected_extra.json's; without those files, none.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const EXTRA_KEYS = ['mismatch', 'staleness', 'tokensPerDpRank', 'requestMetrics'] as const;

/** The dumps' own points, read here (the app reads them on the trend pool's threads). */
const dumpsOnly: TrendsRunner = async (paths) => {
  const dumps = findRunFiles(paths).groups.filter(([path]) => {
    const format = sniffPath(path);
    return typeof format === 'string' && holdsRolloutSamples(format);
  });
  const points = dumps.map(([path]) => {
    const trace = openTraceFile([fixtureSource(path)]);
    return trendFigures({
      path,
      name: basename(path),
      rolloutId: trace.summary.rolloutId,
      ...trace,
    });
  });
  points.sort((a, b) => (a.rolloutId ?? 0) - (b.rolloutId ?? 0));
  return { points, incomplete: [], skipped: [], cached: 0, units: {} };
};

function serviceWithEvents() {
  const service = new TraceService(ingestInThread(FORMATS), { run: dumpsOnly, cacheDir: null });
  const progress: TrendFileProgress[] = [];
  service.onHostEvent((event: HostEvent) => {
    if (event.type === 'trends-progress') progress.push(event.progress);
  });
  return { service, progress };
}

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('openTrends of a run with train dumps and request metrics', () => {
  it("gives each rollout trends RUN --json's figures and expected_extra.json's", async () => {
    const { service, progress } = serviceWithEvents();
    const answer = await service.openTrends({ openId: 't1', paths: [RUN, RUN_EXTRA] });
    const cli = spawnSync(
      process.execPath,
      [CLI, 'trends', RUN, RUN_EXTRA, '--json', '--no-cache'],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const want = JSON.parse(cli.stdout) as TrendsResult;
    expect(answer.points.map((p) => p.path)).toEqual(want.points.map((p) => p.path));
    for (const [k, point] of answer.points.entries()) {
      for (const key of EXTRA_KEYS) {
        expect(point[key], `${point.name} ${key}`).toBeDefined();
        expectClose(point[key], want.points[k][key]);
      }
    }
    expectExpectedExtra(answer.points);
    // the files the figures come from are said as they are read; the dumps by the trends
    const read = progress.filter((p) => p.state === 'done').map((p) => basename(p.path));
    expect(read.sort()).toEqual(RUN_FIGURE_FILES);
    expect(answer.incomplete).toEqual([]);
  });

  it('a run without those files has none of them; its points are the dumps’ own', async () => {
    const { service, progress } = serviceWithEvents();
    const answer = await service.openTrends({ openId: 't2', paths: [RUN] });
    expect(answer.points.map((p) => p.name)).toEqual(['rollout_0.pt', 'rollout_1.pt']);
    for (const point of answer.points)
      for (const key of EXTRA_KEYS) expect(point[key], `${point.name} ${key}`).toBe(undefined);
    expect(answer).toEqual(await dumpsOnly([RUN], { cacheDir: null }));
    expect(progress).toEqual([]);
  });

  it('a broken train dump is listed with its coded error; the rest still joins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trends-run-figures-'));
    scratch.push(dir);
    cpSync(RUN_EXTRA, dir, { recursive: true });
    // the second train dump cut in half: it still sniffs as one, and fails when read
    const cut = join(dir, 'train/train_1.pt');
    const bytes = readFileSync(cut);
    writeFileSync(cut, bytes.subarray(0, bytes.length >> 1));
    const { service } = serviceWithEvents();
    const answer = await service.openTrends({ openId: 't3', paths: [RUN, dir] });
    expect(answer.incomplete).toEqual([
      { path: cut, code: expect.stringMatching(/^zip\//), message: expect.any(String) },
    ]);
    const [first, second] = answer.points;
    expect(first.mismatch?.tokens).toBe(1938);
    // rollout 1 has no train dump now: no mismatch, its request metrics still joined
    expect(second.mismatch).toBeNull();
    expect(second.requestMetrics?.records).toBe(32);
  });
});
