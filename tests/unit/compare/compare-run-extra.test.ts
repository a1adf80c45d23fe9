import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../../src-main/core/compare/compare-traces';
import {
  compareExtraOf,
  type CompareExtra,
} from '../../../src-main/core/compare/run-extra-figures';
import type { CompareResult } from '../../../src-main/core/api/trace-api';
import { EXPECTED_EXTRA } from '../../support/run-extra-expected';
import { metricLines, openRun } from '../../support/run-extra-run';

// Compare of run's two rollout dumps (tests/fixtures/run) with run_extra's train dumps and
// request-metrics log in the run: the answer's sentences and the figures table's rows from
// them, against expected_extra.json and the log's own lines.
const plain = (sentence: CompareResult['answer'][number]) => sentence.map((p) => p.text).join('');
const statOf = (r: CompareResult, key: string) => r.stats.find((f) => f.key === key)!;
const trainFiles = ['train_0.pt', 'train_1.pt'].map((f) => EXPECTED_EXTRA.train.files[f]);

/** the log's records (whole-line JSON.parse) of one side's joined requests */
function recordsOf(extra: CompareExtra) {
  const rids = new Set(extra.samples.flatMap((s) => s.requests.map((r) => r.rid)));
  return metricLines
    .map((l) => JSON.parse(l) as Record<string, number | string>)
    .filter((r) => rids.has(r.id as string));
}
const sum = (records: Record<string, number | string>[], key: string) =>
  records.reduce((n, r) => n + (r[key] as number), 0);

/** the log with `edit` applied to each line (its text as SGLang wrote it, and its id) */
function editedLog(edit: (line: string, id: string) => string): string {
  const out = metricLines.map((line) => edit(line, (JSON.parse(line) as { id: string }).id));
  expect(out).not.toEqual(metricLines);
  return out.join('\n') + '\n';
}

describe('compare with a run: train dumps and request metrics', () => {
  it("adds the run's figures to the table, as expected_extra.json and the log's lines give them", () => {
    const { side } = openRun();
    const [a, b] = [side(0), side(1)];
    const r = compareTraces(a, b);
    const [ta, tb] = trainFiles;
    expect(statOf(r, 'train/mismatch_mean_abs_dlogp').a).toBeCloseTo(
      ta.token_weighted.mean_abs_dlogp,
      9,
    );
    expect(statOf(r, 'train/mismatch_mean_abs_dlogp').b).toBeCloseTo(
      tb.token_weighted.mean_abs_dlogp,
      9,
    );
    expect(statOf(r, 'train/mismatch_max_abs_dlogp').a).toBeCloseTo(
      ta.token_weighted.max_abs_dlogp,
      9,
    );
    expect(statOf(r, 'train/mismatch_max_abs_dlogp').b).toBeCloseTo(
      tb.token_weighted.max_abs_dlogp,
      9,
    );
    const outside = statOf(r, 'train/ratio_outside_pct');
    expect(outside.a).toBeCloseTo(ta.token_weighted['share_ratio_outside_0.5_2'] * 100, 7);
    expect(outside.b).toBeCloseTo(tb.token_weighted['share_ratio_outside_0.5_2'] * 100, 7);
    expect(outside).toMatchObject({ unit: '%', verdict: 'better' });
    // the rows behind it: the samples with a ratio outside [0.5, 2] (position = row here)
    expect([...outside.aRowIds!]).toEqual(ta['samples_with_ratio_outside_0.5_2']);
    expect([...outside.bRowIds!]).toEqual(tb['samples_with_ratio_outside_0.5_2']);
    // verl's token staleness: none in this run (every token of the trainer's own version)
    for (const [key, name] of [
      ['staleness/token_mean_versions', 'mean'],
      ['staleness/token_max_versions', 'max'],
      ['staleness/stale_token_pct', 'stale_fraction'],
    ]) {
      const f = statOf(r, key);
      const age = (t: (typeof trainFiles)[number]) =>
        t.verl_behavior_age[`training/off_policy/token_staleness/${name}`];
      expect([f.a, f.b]).toEqual([age(ta), age(tb)]);
      expect(f.verdict).toBe('noise');
    }
    // from the log's own lines: cached over prompt tokens, inference_time over completion tokens
    const [ra, rb] = [recordsOf(a.extra!), recordsOf(b.extra!)];
    expect([ra.length, rb.length]).toEqual(
      Object.values(EXPECTED_EXTRA.request_metrics.joined_records_per_rollout_dump),
    );
    const hit = statOf(r, 'requests/prefix_cache_hit_pct');
    expect(hit.a).toBeCloseTo((sum(ra, 'cached_tokens') / sum(ra, 'prompt_tokens')) * 100, 9);
    expect(hit.b).toBeCloseTo((sum(rb, 'cached_tokens') / sum(rb, 'prompt_tokens')) * 100, 9);
    expect(hit.verdict).toBe('better');
    const decode = statOf(r, 'requests/decode_per_token_sec');
    expect(decode.a).toBeCloseTo(sum(ra, 'inference_time') / sum(ra, 'completion_tokens'), 12);
    expect(decode.b).toBeCloseTo(sum(rb, 'inference_time') / sum(rb, 'completion_tokens'), 12);
    expect(decode).toMatchObject({ unit: 's', verdict: 'noise' });
    expect(decode.shown).toEqual({ unit: 'ms', a: '14.15', b: '14.07', delta: '−0.08' });
    expect(statOf(r, 'requests/retracted_pct')).toMatchObject({ a: 0, b: 0, verdict: 'noise' });
  });

  it('says what moved in plain sentences after the wall-time ones, the samples linked', () => {
    const { side } = openRun();
    const r = compareTraces(side(0), side(1));
    const plainCompare = compareTraces({ ...side(0), extra: null }, { ...side(1), extra: null });
    expect(r.answer.slice(0, plainCompare.answer.length)).toEqual(plainCompare.answer);
    const added = r.answer.slice(plainCompare.answer.length);
    expect(added.map(plain)).toEqual([
      "The prefix cache served 25.0% of B's prompt tokens, against 16.7% of A's.",
      "The trainer's log-probs differed from the server's by 0.0176 per loss-masked token in B (max 1.54), against 0.0237 in A (max 1.34); 0.7% of B's tokens had an importance ratio outside [0.5, 2], against 1.4% of A's.",
    ]);
    expect(added[1].filter((p) => p.rowIds)).toEqual([
      { text: "0.7% of B's tokens", side: 'b', rowIds: [11] },
      { text: "1.4% of A's", side: 'a', rowIds: [15, 16] },
    ]);
    // a plain compare has none of the run's keys
    expect(plainCompare.stats.some((f) => /^(requests|train|staleness)\//.test(f.key))).toBe(false);
  });

  it("says how much slower B's decode was per token, and how many of B's requests were retracted", () => {
    const { side: base } = openRun();
    const ridsOf = (extra: CompareExtra, samples: number) =>
      new Set(extra.samples.slice(0, samples).flatMap((s) => s.requests.map((q) => q.rid)));
    const a = base(0).extra!;
    const b = base(1).extra!;
    // B's server 25% slower per token; 10 of B's 32 requests retracted (twice each), 1 of A's
    const slower = ridsOf(b, 32);
    const retracted = new Set([...ridsOf(b, 10), ...ridsOf(a, 1)]);
    const log = editedLog((line, id) => {
      let out = line;
      if (slower.has(id))
        out = out.replace(
          /"inference_time": ([0-9.e-]+)/,
          (_, v: string) => `"inference_time": ${Number(v) * 1.25}`,
        );
      if (retracted.has(id)) out = out.replace('"num_retractions": 0', '"num_retractions": 2');
      return out;
    });
    const { side } = openRun(log);
    const r = compareTraces(side(0), side(1));
    const said = r.answer.map(plain);
    // per output token from the log's lines: A's as written, B's 1.25x
    const perToken = (extra: CompareExtra, scale: number) => {
      const records = recordsOf(extra);
      return (scale * sum(records, 'inference_time')) / sum(records, 'completion_tokens');
    };
    const [da, db] = [perToken(a, 1), perToken(b, 1.25)];
    const ms = (v: number) => `${(v * 1e3).toFixed(2)} ms`;
    expect([ms(db), ms(da)]).toEqual(['17.59 ms', '14.15 ms']);
    expect(said).toContain(
      `B's decode was ${(((db - da) / da) * 100).toFixed(1)}% slower per token (${ms(db)} vs ${ms(da)} per output token: the servers' inference_time over completion tokens).`,
    );
    expect(said).toContain(
      "31.3% of B's requests were retracted at least once, against 3.1% in A (20 retractions in B, 2 in A).",
    );
    const sentence = r.answer.find((s) => plain(s).includes('retracted'))!;
    expect(sentence.filter((p) => p.rowIds)).toEqual([
      {
        text: "31.3% of B's requests",
        side: 'b',
        rowIds: side(1)
          .extra!.samples.slice(0, 10)
          .map((s) => s.rowId),
      },
      { text: '3.1% in A', side: 'a', rowIds: [side(0).extra!.samples[0].rowId] },
    ]);
    expect(statOf(r, 'requests/retracted_pct')).toMatchObject({
      a: 100 / 32,
      b: 1000 / 32,
      verdict: 'worse',
    });
    expect(statOf(r, 'requests/decode_per_token_sec').verdict).toBe('worse');
    // swapped, the same figures with A and B's roles turned
    const swapped = compareTraces(side(1), side(0)).answer.map(plain);
    expect(swapped).toContain(
      `B's decode was ${(((db - da) / db) * 100).toFixed(1)}% faster per token (${ms(da)} vs ${ms(db)} per output token: the servers' inference_time over completion tokens).`,
    );
  });

  it("says how stale each side's tokens were when either had any", () => {
    const { side } = openRun();
    const a = side(0);
    const b = side(1);
    const stale = structuredClone(b.extra!);
    stale.rollout.staleness = {
      ...stale.rollout.staleness!,
      mean: 0.5,
      max: 1,
      staleFraction: 0.5,
      staleSamples: 16,
    };
    stale.samples
      .slice(0, 16)
      .forEach((s) => (s.staleness = { ...s.staleness!, staleTokens: s.staleness!.tokens }));
    const r = compareTraces(a, { ...b, extra: stale });
    const sentence = r.answer.find((s) => plain(s).includes('stale'))!;
    expect(plain(sentence)).toBe(
      "B's tokens were 0.50 weight versions (max 1) behind its trainer on average, A's 0.00 weight versions (max 0): 50.0% of B's tokens were stale, against 0.0% of A's.",
    );
    expect(sentence.find((p) => p.side === 'b')!.rowIds).toEqual(
      stale.samples.slice(0, 16).map((s) => s.rowId),
    );
    expect(statOf(r, 'staleness/stale_token_pct')).toMatchObject({ a: 0, b: 50, verdict: 'worse' });
  });

  it('finds a rollout by its id in the run or by its path (the same file opened apart)', () => {
    const { files, joins } = openRun();
    const run = { files, joins };
    const own = compareExtraOf(run, files[1].file)!;
    expect(own.rollout.rolloutId).toBe(1);
    expect(compareExtraOf(run, { fileId: 'apart', path: files[1].file.path })).toEqual(own);
    expect(compareExtraOf(run, files[2].file)).toBeNull(); // the OTel trace
    expect(compareExtraOf(run, { fileId: 'elsewhere', path: '/else/rollout_1.pt' })).toBeNull();
    expect(compareExtraOf(run, { fileId: 'uploaded', path: null })).toBeNull();
    expect(compareExtraOf({ files, joins: { ...joins, extra: null } }, files[0].file)).toBeNull();
  });
});
