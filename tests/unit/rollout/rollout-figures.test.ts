import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { WALL_TIME_CATEGORIES } from '../../../src-main/core/model/rollout-figures';
import { compareDigest, compareTraces } from '../../../src-main/core/compare/compare-traces';
import type { FileSummary } from '../../../src-main/core/api/trace-api';
import { writeSlimeDump, type SlimeDumpShape } from '../../bench/slime-dump-writer.mjs';
import { SLIME, fixtureSource, readJson } from '../../support/fixtures';

interface CacheItem {
  type: string;
  name: string;
  start_ts?: number;
  display_end_ts?: number;
  ts?: number;
}
interface Cache {
  global_start: number;
  global_end: number;
  rows: { row_id: number; group_index: number; end: number; reward: unknown; items: CacheItem[] }[];
}

const open = (path: string) => openTraceFile([fixtureSource(path)]);
const rollout8 = open(resolve(SLIME, 'rollout_8.pt'));
const cache8 = readJson<Cache>(resolve(SLIME, 'rollout_8.pt.expected.json'));
const startOf = (item: CacheItem) => item.start_ts ?? item.ts!;
const endOf = (item: CacheItem) => item.display_end_ts ?? item.ts!;

describe('rollout 8: partial-rollout resume of rollout 7 (fixture README)', () => {
  const r = rollout8.perf.rollout;
  // rollout 8's own clock starts at 1760000000 + 3600 x 8 (fixture README: virtual clock)
  const ownStart = 1760000000 + 3600 * 8;

  it('finds the 8 resumed samples of groups 0 and 1 by metadata.start_rollout_id', () => {
    expect(r.resumed.map((s) => s.rowId)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(r.resumed.map((s) => s.startRolloutId))).toEqual(new Set([7]));
    // row 9 has an attempt_start with reason partial_rollout_resume too, but it is a retry inside
    // rollout 8 (its sample has no earlier rollout): not resumed
    const row9 = cache8.rows[9].items.find((i) => i.name === 'attempt_start');
    expect(row9).toBeDefined();
    expect(r.resumed.some((s) => s.rowId === 9)).toBe(false);
  });

  it('each resumed sample’s idle gap is the stretch its trace covers nothing, from slime’s own rows', () => {
    for (const s of r.resumed) {
      const items = cache8.rows[s.rowId].items;
      // independently: the earlier attempt is everything before rollout 8's clock start
      const earlierEnd = Math.max(...items.filter((i) => startOf(i) < ownStart).map(endOf));
      const resumeStart = Math.min(...items.filter((i) => startOf(i) >= ownStart).map(startOf));
      expect(s.earlierEndSec).toBeCloseTo(earlierEnd - cache8.global_start, 6);
      expect(s.resumeStartSec).toBeCloseTo(resumeStart - cache8.global_start, 6);
      expect(s.idleSec).toBeCloseTo(resumeStart - earlierEnd, 6);
      expect(s.idleSec).toBeGreaterThan(3500);
    }
  });

  it('the own window runs from rollout 8’s first work to its end; the whole span is slime’s viewer span', () => {
    expect(r.own.startSec).toBeCloseTo(ownStart - cache8.global_start, 6);
    expect(r.own.endSec).toBeCloseTo(cache8.global_end - cache8.global_start, 6);
    expect(r.whole.durationSec).toBeCloseTo(cache8.global_end - cache8.global_start, 6);
    expect(r.own.label).toBe(
      "this rollout's own window: 3570.0-3628.3 s (58.3 s); earlier attempts of 8 resumed samples left out",
    );
    // the summary carries it for the timeline's default window and idle gaps
    expect(rollout8.summary.rolloutWindow!.ownStartSec).toBe(r.own.startSec);
    expect(rollout8.summary.rolloutWindow!.idleGaps).toHaveLength(8);
  });

  it('what kept the rollout open sums to each window; before the own window it is idle or earlier attempts', () => {
    const sum = (seconds: Record<string, number>) =>
      WALL_TIME_CATEGORIES.reduce((t, c) => t + seconds[c], 0);
    expect(sum(r.breakdownOwn.seconds)).toBeCloseTo(r.own.durationSec, 9);
    expect(sum(r.breakdownWhole.seconds)).toBeCloseTo(r.whole.durationSec, 9);
    expect(r.breakdownOwn.seconds['idle between attempts']).toBe(0);
    const before =
      r.breakdownWhole.seconds['idle between attempts'] +
      r.breakdownWhole.seconds['earlier attempts'];
    expect(before).toBeCloseTo(r.own.startSec, 9);
    // the earlier attempts: the union of the resumed samples' first attempts (groups 0 and 1
    // overlap from 0 s; group 1's lasts longest)
    expect(r.breakdownWhole.seconds['earlier attempts']).toBeCloseTo(
      Math.max(...r.resumed.map((s) => s.earlierEndSec)),
      9,
    );
    // the last group to end is group 2 (slime's rows: the latest row end)
    const lastEnd = Math.max(...cache8.rows.map((row) => row.end));
    expect(cache8.rows.find((row) => row.row_id === r.breakdownOwn.boundingRowId)!.end).toBe(
      lastEnd,
    );
    expect(r.breakdownOwn.boundingGroupIndex).toBe(2);
  });

  it('straggler attribution: the last tenth of the samples and the share of the own window only they ran', () => {
    const s = r.stragglers!;
    // independently: each sample's own work end (group-wide spans apart), from slime's rows
    const ends = cache8.rows
      .map((row) => ({
        id: row.row_id,
        end: Math.max(
          ...row.items
            .filter((i) => i.name !== 'generate_and_rm_group' && startOf(i) >= ownStart - 1)
            .map(endOf),
        ),
      }))
      .sort((a, b) => a.end - b.end || a.id - b.id);
    expect(s.sampleCount).toBe(3); // ceil(24 / 10)
    expect(s.rowIds).toEqual(ends.slice(21).map((e) => e.id));
    expect(s.tailSec).toBeCloseTo(cache8.global_end - ends[20].end, 6);
    expect(s.wallShare).toBeCloseTo(s.tailSec / r.own.durationSec, 12);
    expect(s.sentence).toMatch(
      /^the last 3 samples \(12\.5%\) kept the rollout open for \d+\.\d% of its own wall time/,
    );
  });

  it('GRPO groups: rewards per group as numpy computes them, one zero-variance group (compare.expected.json)', () => {
    const expected = readJson<{ b: { groups: number; zero_variance_groups: number } }>(
      resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'),
    );
    expect(r.groups).toHaveLength(expected.b.groups);
    expect(r.groups.filter((g) => g.zeroVariance)).toHaveLength(expected.b.zero_variance_groups);
    // group 5 holds rewards 0, None (aborted), 0, 0 in slime's rows: zero variance
    expect(r.groups.find((g) => g.zeroVariance)!.groupIndex).toBe(5);
    for (const g of r.groups) {
      const rewards = cache8.rows
        .filter((row) => row.group_index === g.groupIndex)
        .map((row) =>
          typeof row.reward === 'number'
            ? row.reward
            : (row.reward as { score?: number } | null)?.score,
        )
        .filter((x): x is number => typeof x === 'number');
      const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
      expect(g.rewardMean).toBeCloseTo(mean, 12);
      expect(g.rewardStd).toBeCloseTo(
        Math.sqrt(rewards.reduce((a, b) => a + (b - mean) ** 2, 0) / rewards.length),
        12,
      );
      expect(g.rowIds).toHaveLength(4);
      expect(g.resumedSamples).toBe(g.groupIndex === 0 || g.groupIndex === 1 ? 4 : 0);
      expect(g.wallSec).toBeGreaterThanOrEqual(g.medianSampleSec);
    }
  });
});

describe('rollout 7: nothing resumed', () => {
  it('the own window is the whole file', () => {
    const r = open(resolve(SLIME, 'rollout_7.pt')).perf.rollout;
    expect(r.resumed).toEqual([]);
    expect(r.own.durationSec).toBe(r.whole.durationSec);
    expect(r.breakdownWhole.seconds).toEqual(r.breakdownOwn.seconds);
  });
});

describe('synthetic dumps with resumed groups (tests/bench/slime-dump-writer.mjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'resume-'));
  const dump = (name: string, shape: SlimeDumpShape) => {
    const path = join(dir, name);
    writeSlimeDump(path, 10_000_000, 40, 40, shape);
    return openTraceFile([bytesSource(name, new Uint8Array(readFileSync(path)))]);
  };

  it('groups resumed from two rollouts back: found, idle over an hour, own window this rollout’s', () => {
    const trace = dump('rollout_5.pt', { rolloutId: 5, seed: 3, resumedGroups: 2, resumedFrom: 2 });
    const r = trace.perf.rollout;
    // groups of 8 (the writer's): two groups = rows 0-15
    expect(r.resumed.map((s) => s.rowId)).toEqual([...Array(16).keys()]);
    expect(new Set(r.resumed.map((s) => s.startRolloutId))).toEqual(new Set([3]));
    for (const s of r.resumed) expect(s.idleSec).toBeGreaterThan(2 * 3600 - 60);
    expect(r.whole.durationSec).toBeGreaterThan(2 * 3600 - 10);
    expect(r.own.durationSec).toBeLessThan(200);
  });

  it('every sample carrying start_rollout_id (its own id when fresh): only earlier ids count as resumed', () => {
    const trace = dump('rollout_6.pt', {
      rolloutId: 6,
      seed: 4,
      resumedGroups: 1,
      markStartRolloutId: true,
    });
    const r = trace.perf.rollout;
    expect(r.resumed.map((s) => s.rowId)).toEqual([...Array(8).keys()]);
    const fresh = dump('rollout_6b.pt', { rolloutId: 6, seed: 4, markStartRolloutId: true });
    expect(fresh.perf.rollout.resumed).toEqual([]);
    expect(fresh.perf.rollout.own.durationSec).toBe(fresh.perf.rollout.whole.durationSec);
  });

  it('compare of a fresh rollout with the next one that resumed its groups names the idle time', () => {
    const a = dump('rollout_1.pt', { rolloutId: 1, seed: 5 });
    const b = dump('rollout_2.pt', { rolloutId: 2, seed: 6, resumedGroups: 3 });
    const side = (t: typeof a, id: string) => ({
      fileId: id,
      summary: { ...t.summary, fileId: id, path: null } as FileSummary,
      digest: compareDigest(t),
    });
    const result = compareTraces(side(a, 'a'), side(b, 'b'));
    const first = result.answer[0].map((p) => p.text).join('');
    expect(first).toMatch(
      /are idle time before the second attempts of 24 samples resumed from rollout 1/,
    );
    expect(result.answer[0].find((p) => p.rowIds)!.rowIds).toEqual([...Array(24).keys()]);
    const idle = result.stats.find((s) => s.key === 'rollout/idle_between_attempts_sec')!;
    expect(idle.a).toBe(0);
    expect(idle.b!).toBeGreaterThan(3000);
  });
});

describe('rollout_pd_legacy: flat PD keys split what kept the rollout open (TRACE_MODEL 4)', () => {
  interface RequestItem extends CacheItem {
    attrs: { end_attrs: Record<string, unknown> };
  }
  const cache = readJson<Cache>(resolve(SLIME, 'rollout_pd_legacy.pt.expected.json'));

  it('the bounding sample’s request counts its phases as prefill and decode, the rest generation', () => {
    const r = open(resolve(SLIME, 'rollout_pd_legacy.pt')).perf.rollout;
    const bounding = cache.rows.find((row) => row.row_id === r.breakdownOwn.boundingRowId)!;
    // the last group to end holds the bounding sample (slime's rows: the latest row end)
    expect(bounding.group_index).toBe(
      cache.rows.find((row) => row.end === Math.max(...cache.rows.map((x) => x.end)))!.group_index,
    );
    // independently, from slime's own rows of the file: its one request and its flat keys
    const requests = bounding.items.filter((i) => i.name === 'sglang_generate') as RequestItem[];
    expect(requests).toHaveLength(1);
    const request = requests[0];
    const attrs = request.attrs.end_attrs;
    const sumOf = (role: string) =>
      Object.entries(attrs)
        .filter(([key]) => key.startsWith(`pd_${role}_`) && key.endsWith('_duration'))
        .reduce((sum, [, value]) => sum + (value as number), 0);
    const [prefill, decode, queue] = [sumOf('prefill'), sumOf('decode'), attrs.queue_time];
    const length = request.display_end_ts! - request.start_ts!;
    // the phases fit in the request and the queue time in its prefill: laid out from the
    // request's start, queue time first, then prefill, then decode, then the rest
    expect(prefill + decode).toBeLessThan(length);
    expect(queue).toBeLessThan(prefill);
    const seconds = r.breakdownOwn.seconds;
    expect(seconds.prefill).toBeCloseTo(prefill - (queue as number), 6);
    expect(seconds.decode).toBeCloseTo(decode, 6);
    expect(seconds['unsplit request']).toBeCloseTo(length - prefill - decode, 6);
    // before its request the sample had not started, or queued: no other generation
    expect(seconds.queueing).toBeCloseTo(
      request.start_ts! - cache.global_start + (queue as number),
      6,
    );
  });
});
