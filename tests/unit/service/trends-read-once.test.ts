import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceService, type TrendsRunner } from '../../../src-main/api/trace-service';
import { FORMATS, holdsRolloutSamples } from '../../../src-main/core/formats/registry';
import type { RunFileDigest } from '../../../src-main/core/model/run';
import { openTraceFigures, openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { runDigest, runDigestOfFigures } from '../../../src-main/core/run/run-digest';
import type { IngestRunner } from '../../../src-main/ingest/ingest-pool';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { sniffPath } from '../../../src-main/ingest/sniff-path';
import { readTrendDump } from '../../../src-main/trends/read-trend-dump';
import { groupPaths } from '../../../src-main/ingest/group-files';
import { fixtureSource } from '../../support/fixtures';
import { ingestInThread } from '../../support/in-thread-ingest';
import {
  RUN,
  RUN_EXTRA,
  RUN_FIGURE_FILES,
  expectExpectedExtra,
} from '../../support/run-extra-expected';

// A run's trends with train dumps and request metrics read each rollout dump once: the dump's run
// digest is made from the read that makes its point (runDigestOfFigures), and the joins take it
// instead of opening the dump again. The run: tests/fixtures/run with run_extra's files.

/** the run's files its figures come from: its dumps, train dumps, metrics log and timelines */
const FILES = findRunFiles([RUN, RUN_EXTRA]).groups.map(([path]) => path);

describe("a dump's digest from its trend read", () => {
  it("is the digest of the file opened whole, for every kind of the run's files", () => {
    expect(FILES.map((p) => basename(p)).sort()).toEqual(
      [...RUN_FIGURE_FILES, 'rollout_0.pt', 'rollout_1.pt', 'sglang_otel_trace.json'].sort(),
    );
    for (const path of FILES) {
      const whole = runDigest(openTraceFile([fixtureSource(path)]));
      expect(runDigestOfFigures(openTraceFigures([fixtureSource(path)])), path).toEqual(whole);
    }
  });
});

/** The trends' own part, as computeTrends does it (on this thread): the dumps, the rest skipped. */
function trendsHere(withDigests: boolean): TrendsRunner {
  return async (paths, options) => {
    const found = groupPaths(paths);
    const skipped = [...found.skipped];
    for (const folder of found.emptyFolders)
      skipped.push({ path: folder, reason: 'holds no trace file' });
    const points = [];
    for (const group of found.groups) {
      const format = sniffPath(group[0]);
      if (typeof format !== 'string' || !holdsRolloutSamples(format)) {
        for (const path of group) skipped.push({ path, reason: 'not a rollout dump' });
        continue;
      }
      const read = readTrendDump(group[0], { digest: withDigests && !!options.onDigest });
      if (read.digest) options.onDigest!(group[0], read.digest);
      points.push(read.point);
    }
    points.sort((a, b) => (a.rolloutId ?? 0) - (b.rolloutId ?? 0));
    return { points, incomplete: [], skipped, cached: 0, units: {} };
  };
}

/** openTrends of the run as one folder's files would be asked, with the files ingest opened. */
async function openTrends(withDigests: boolean) {
  const opened: string[] = [];
  const inThread = ingestInThread(FORMATS);
  const ingest: IngestRunner = (request, onProgress, onPreview) => {
    for (const source of request.sources) if (source.kind === 'path') opened.push(source.path);
    return inThread(request, onProgress, onPreview);
  };
  const service = new TraceService(ingest, { run: trendsHere(withDigests), cacheDir: null });
  const answer = await service.openTrends({ openId: 'once', paths: [RUN, RUN_EXTRA] });
  return { answer, opened: opened.map((p) => basename(p)).sort() };
}

describe('openTrends of a run with train dumps and request metrics', () => {
  it('opens no rollout dump for the joins when the trends digested it', async () => {
    const once = await openTrends(true);
    expect(once.opened).toEqual(RUN_FIGURE_FILES);
    expectExpectedExtra(once.answer.points);
    // the same answer as when the joins open every dump again
    const twice = await openTrends(false);
    expect(twice.opened).toEqual([...once.opened, 'rollout_0.pt', 'rollout_1.pt'].sort());
    expect(once.answer).toEqual(twice.answer);
  });

  it('says skipped only what was read for nothing: not the files the figures come from', async () => {
    const { answer } = await openTrends(true);
    const skipped = answer.skipped.map((s) => `${basename(s.path)}: ${s.reason}`);
    expect(skipped).toContain('sglang_otel_trace.json: not a rollout dump');
    expect(skipped).toContain('run_plan.json: not a trace this app reads');
    // train/, sglang_request_metrics/ and comm_timeline*/ hold files the figures were read from
    for (const folder of ['train', 'sglang_request_metrics', 'comm_timeline', 'comm_timeline_v1'])
      expect(
        skipped.some((s) => s.startsWith(`${folder}:`)),
        folder,
      ).toBe(false);
    expect(answer.skipped.map((s) => s.path)).not.toContain(RUN_EXTRA);
    expect(skipped).toHaveLength(7);
    // the dumps' own trends, without those files, list the folders as not opened
    const plain = await trendsHere(true)([RUN, RUN_EXTRA], { cacheDir: null });
    expect(plain.skipped.map((s) => s.path)).toContain(join(RUN_EXTRA, 'train'));
    expect(plain.skipped).toHaveLength(12);
  });
});

// a digest is what the joins take: it must survive the trend worker's postMessage
it('a digest is plain data (structured-cloned as posted)', () => {
  const digest: RunFileDigest = readTrendDump(join(RUN, 'rollout_0.pt'), { digest: true }).digest!;
  expect(structuredClone(digest)).toEqual(digest);
  expect(digest.role).toBe('samples');
});
