import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../../src-main/core/compare/compare-traces';
import type { CompareResult } from '../../../src-main/core/api/trace-api';
import { trendExtraFigures } from '../../../src-main/core/model/rollout-extra-stats';
import { metricLines, openRun } from '../../support/run-extra-run';

// HiCache's storage tier (L3): a server with one writes `storage` (and `storage_backend`) in
// cached_tokens_details beside device and host. run_extra's log with B's device hits moved to
// storage: the rollout's split, trends and compare count them.
const plain = (sentence: CompareResult['answer'][number]) => sentence.map((p) => p.text).join('');
const DETAILS = /"cached_tokens_details": \{"device": (\d+), "host": 0\}/;

describe("prefix-cache hits from HiCache's storage tier", () => {
  it('are read per record, summed per rollout, and shown in trends and compare', () => {
    const { joins } = openRun();
    const ridsB = new Set(
      joins.extra!.samples.filter((s) => s.file === 1).flatMap((s) => s.requests.map((r) => r.rid)),
    );
    let moved = 0;
    const log = metricLines.map((line) => {
      const id = (JSON.parse(line) as { id: string }).id;
      if (!ridsB.has(id)) return line;
      return line.replace(DETAILS, (_, device: string) => {
        moved += Number(device);
        return `"cached_tokens_details": {"device": 0, "host": 0, "storage": ${device}, "storage_backend": "HiCacheFile"}`;
      });
    });
    expect(moved).toBeGreaterThan(0);
    const run = openRun(log.join('\n') + '\n');
    const [ra, rb] = [0, 1].map((k) => run.joins.rollouts[k].figures!.requestMetrics!);
    expect(rb).toMatchObject({ cachedDevice: 0, cachedHost: 0, cachedStorage: moved });
    expect(rb.cachedTokens).toBe(moved);
    expect(ra.cachedStorage).toBe(0);
    const samplesB = run.joins.extra!.samples.filter((s) => s.file === 1);
    expect(samplesB.reduce((n, s) => n + (s.requests[0].cachedStorage ?? 0), 0)).toBe(moved);
    // trends: the storage share of B's prompt tokens beside device and host; none for A
    const trendB = trendExtraFigures({ requestMetrics: rb });
    expect(trendB['requests/prefix_cache_hit_storage_pct']).toBeCloseTo(
      (moved / rb.promptTokens) * 100,
      12,
    );
    expect(trendB['requests/prefix_cache_hit_device_pct']).toBe(0);
    expect(
      'requests/prefix_cache_hit_storage_pct' in trendExtraFigures({ requestMetrics: ra }),
    ).toBe(false);
    // compare: the cache sentence says where B's hits came from
    const said = compareTraces(run.side(0), run.side(1)).answer.map(plain);
    expect(said).toContain(
      "The prefix cache served 25.0% of B's prompt tokens (100.0% from storage), against 16.7% of A's.",
    );
  });
});
