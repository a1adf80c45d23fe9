import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../../src-main/core/compare/compare-traces';
import type { CompareResult } from '../../../src-main/core/api/trace-api';
import {
  rolloutExtraStats,
  trendExtraFigures,
} from '../../../src-main/core/model/rollout-extra-stats';
import { groupExtraFigures } from '../../../src-main/core/model/group-extra-figures';
import { metricLines, openRun } from '../../support/run-extra-run';

// An older sglang writes no retraction field: its records' retractions are unknown, not 0, from
// the record to the sample, the rollout, compare and trends. run_extra's log with the field
// taken out of some lines (every line as SGLang wrote it has "num_retractions": 0).
const plain = (sentence: CompareResult['answer'][number]) => sentence.map((p) => p.text).join('');

/** the log with `num_retractions` removed from the lines `drop` picks, set to 2 on `twice`'s */
function logWith(drop: (id: string) => boolean, twice: (id: string) => boolean = () => false) {
  const out = metricLines.map((line) => {
    const id = (JSON.parse(line) as { id: string }).id;
    expect(line).toContain('"num_retractions": 0, ');
    if (drop(id)) return line.replace('"num_retractions": 0, ', '');
    return twice(id) ? line.replace('"num_retractions": 0', '"num_retractions": 2') : line;
  });
  return out.join('\n') + '\n';
}

/** the rids of a rollout dump's joined requests (file 0 or 1), in sample order */
function ridsOf(file: number): string[] {
  const { joins } = openRun();
  return joins
    .extra!.samples.filter((s) => s.file === file)
    .flatMap((s) => s.requests.map((r) => r.rid));
}

describe('retractions of a log that does not tell them', () => {
  it('are unknown for the record, the sample, the rollout, compare and trends', () => {
    const ridsA = new Set(ridsOf(0));
    const ridsB = ridsOf(1);
    const { traces, joins, side } = openRun(
      logWith(
        (id) => ridsA.has(id),
        (id) => id === ridsB[0],
      ),
    );
    const records = traces[7].runRecords!.requestMetrics!.records;
    expect(records.filter((r) => r.retractions === null)).toHaveLength(ridsA.size);
    const samplesA = joins.extra!.samples.filter((s) => s.file === 0);
    expect(samplesA.length).toBeGreaterThan(0);
    expect(
      samplesA.every((s) => s.retractions === null && s.requests[0].retractions === null),
    ).toBe(true);
    const [ra, rb] = [0, 1].map((k) => joins.rollouts[k].figures!.requestMetrics!);
    expect(ra).toMatchObject({ retractions: null, retractedRecords: null, retractionRecords: 0 });
    expect(rb).toMatchObject({ retractions: 2, retractedRecords: 1, retractionRecords: 32 });
    // compare and trends: A's retraction figures absent, not 0
    const statsA = rolloutExtraStats({ requestMetrics: ra });
    expect('requests/retractions' in statsA).toBe(false);
    expect('requests/retracted_pct' in trendExtraFigures({ requestMetrics: ra })).toBe(false);
    expect(statsA['requests/prefix_cache_hit_pct']).toBeGreaterThan(0);
    expect(rolloutExtraStats({ requestMetrics: rb })['requests/retracted_pct']).toBe(100 / 32);
    const r = compareTraces(side(0), side(1));
    expect(r.answer.map(plain).some((s) => s.includes('retract'))).toBe(false);
    const stat = r.stats.find((f) => f.key === 'requests/retractions');
    expect(stat?.a ?? null).toBeNull();
    // a group of A's samples: no retraction figure, not 0
    const byRow = new Map(samplesA.map((s) => [s.rowId, s]));
    const group = groupExtraFigures(
      samplesA.map((s) => s.rowId),
      (row) => byRow.get(row),
    )!;
    expect(group.retractions).toBeNull();
    expect(group.cacheHit).not.toBeNull();
  });

  it('count over the records that tell them when only some do', () => {
    const ridsB = ridsOf(1);
    // B: its first 8 requests unknown, the next 2 retracted twice, the other 22 not
    const unknown = new Set(ridsB.slice(0, 8));
    const twice = new Set(ridsB.slice(8, 10));
    const { joins, side } = openRun(
      logWith(
        (id) => unknown.has(id),
        (id) => twice.has(id),
      ),
    );
    const rb = joins.rollouts[1].figures!.requestMetrics!;
    expect(rb).toMatchObject({
      records: 32,
      retractions: 4,
      retractedRecords: 2,
      retractionRecords: 24,
    });
    expect(rolloutExtraStats({ requestMetrics: rb })['requests/retracted_pct']).toBeCloseTo(
      (2 / 24) * 100,
      12,
    );
    const said = compareTraces(side(0), side(1)).answer.map(plain);
    expect(said).toContain(
      "8.3% of B's requests were retracted at least once, against 0.0% in A (4 retractions in B, 0 in A).",
    );
  });
});
