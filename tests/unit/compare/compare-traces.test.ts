import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { compareDigest, compareTraces, type CompareSide } from '../../../src-main/core/compare/compare-traces';
import type { FileSummary } from '../../../src-main/core/api/trace-api';
import { OTLP, SLIME, fixtureSource, readJson } from '../../support/fixtures';

interface ExpectedCache {
  rows: { row_id: number; items: { type: string; name: string; state: string }[] }[];
}

/** One side as the service builds it: the digest comes from the file's worker. */
function side(path: string, fileId: string): CompareSide {
  const trace = openTraceFile([fixtureSource(path)]);
  const summary = { ...trace.summary, fileId, path } as FileSummary;
  // the digest crosses a thread boundary: it must survive structured cloning unchanged
  return { fileId, summary, digest: structuredClone(compareDigest(trace)) };
}

describe('comparing two rollouts from their digests', () => {
  it('a dump against itself: every row matched by index, span totals equal on both sides', () => {
    const path = resolve(SLIME, 'rollout_agentic.pt');
    const result = compareTraces(side(path, 'a'), side(path, 'b'));
    const expected = readJson<ExpectedCache>(`${path}.expected.json`);
    expect(result.matched).toHaveLength(expected.rows.length);
    expect(result.onlyA).toEqual([]);
    expect(result.onlyB).toEqual([]);
    // span counts per name are slime's spans
    const slimeSpans = new Map<string, number>();
    for (const row of expected.rows)
      for (const item of row.items)
        if (item.type === 'span') slimeSpans.set(item.name, (slimeSpans.get(item.name) ?? 0) + 1);
    for (const [name, count] of slimeSpans) {
      // deliberately ours: PD phase child spans are segments of their [P]/[D] span, not spans
      if (/^sglang_pd_(prefill|decode)_/.test(name)) continue;
      const entry = result.spanTotals.find((t) => t.name === name)!;
      expect(entry.aCount).toBe(count);
      expect(entry.bCount).toBe(count);
      expect(entry.aSec).toBe(entry.bSec);
    }
    for (const stat of result.stats) expect(stat.a).toBe(stat.b);
  });

  it('different rollouts: samples missing on one side are listed as only-A or only-B', () => {
    const result = compareTraces(
      side(resolve(SLIME, 'rollout_small.pt'), 'a'),
      side(resolve(SLIME, 'rollout_agentic.pt'), 'b'),
    );
    const rowsA = readJson<ExpectedCache>(resolve(SLIME, 'rollout_small.pt.expected.json')).rows.length;
    const rowsB = readJson<ExpectedCache>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows.length;
    expect(result.matched.length + result.onlyA.length).toBe(rowsA);
    expect(result.matched.length + result.onlyB.length).toBe(rowsB);
    expect(result.stats.find((s) => s.key === 'rollout/rows')).toMatchObject({ key: 'rollout/rows', a: rowsA, b: rowsB, unit: 'samples' });
  });

  it('a dump and an OTLP file cannot be compared', () => {
    expect(() =>
      compareTraces(side(resolve(SLIME, 'rollout_small.pt'), 'a'), side(resolve(OTLP, 'sglang_otel_trace.json'), 'b')),
    ).toThrow(/cannot compare a slime dump with a OpenTelemetry trace|cannot compare/);
  });
});
