import { describe, expect, it } from 'vitest';
import {
  GROUP_EXTRA_FIGURES,
  groupExtraFigures,
  rowFigureParts,
  type GroupExtraKey,
} from '../../../src-main/core/model/group-extra-figures';
import { groupsByRowFigure } from '../../../src-main/core/open/group-page';
import type { GroupFigures } from '../../../src-main/core/model/rollout-figures';
import type { RunSampleFigures } from '../../../src-main/core/model/run-extra';
import { EXPECTED_EXTRA } from '../../support/run-extra-expected';
import { metricLines, openRun } from '../../support/run-extra-run';

// Each GRPO group of run's rollout dumps with run_extra's train dumps and request metrics
// joined: its figures against expected_extra.json's per-sample figures and the log's lines.
const trainFiles = ['train_0.pt', 'train_1.pt'].map((f) => EXPECTED_EXTRA.train.files[f]);
const records = new Map(
  metricLines.map((l) => {
    const r = JSON.parse(l) as Record<string, unknown>;
    return [r.id as string, r];
  }),
);

describe("a group's train and server figures", () => {
  it('are token-weighted over its samples, as expected_extra.json and the log give them', () => {
    const { traces, joins } = openRun();
    const extra = joins.extra!;
    [0, 1].forEach((file) => {
      const bySample = new Map(
        extra.samples.filter((s) => s.file === file).map((s) => [s.rowId, s]),
      );
      const perSample = new Map(trainFiles[file].per_sample.map((p) => [p.rollout_position, p]));
      const groups = traces[file].perf.rollout.groups;
      expect(groups).toHaveLength(8);
      for (const group of groups) {
        const figures = groupExtraFigures(group.rowIds, (row) => bySample.get(row))!;
        // the train dump's per-sample figures (rollout_position = the row)
        const expected = group.rowIds.map((row) => perSample.get(row)!);
        const tokens = expected.reduce((n, p) => n + p.loss_masked_tokens, 0);
        const weighted = (pick: (p: (typeof expected)[number]) => number) =>
          expected.reduce((n, p) => n + pick(p) * p.loss_masked_tokens, 0) / tokens;
        expect(figures.meanAbsDelta).toBeCloseTo(
          weighted((p) => p.mean_abs_dlogp),
          9,
        );
        expect(figures.outsideShare).toBeCloseTo(
          weighted((p) => p['share_ratio_outside_0.5_2']),
          9,
        );
        expect(figures.staleMean).toBe(weighted((p) => p.token_staleness));
        expect(figures.staleFraction).toBe(0);
        // the log's records of the group's generate calls: cached over prompt tokens
        const rids = group.rowIds.flatMap((row) => bySample.get(row)!.requests.map((r) => r.rid));
        expect(rids.length).toBeGreaterThanOrEqual(group.rowIds.length);
        const lines = rids.map((rid) => records.get(rid)!);
        const sum = (key: string) => lines.reduce((n, r) => n + (r[key] as number), 0);
        expect(figures.cacheHit).toBeCloseTo(sum('cached_tokens') / sum('prompt_tokens'), 12);
        expect(figures.retractions).toBe(sum('num_retractions'));
        expect(figures.retractedSamples).toBe(0);
        expect(figures.decodePerToken).toBeCloseTo(
          sum('inference_time') / sum('completion_tokens'),
          12,
        );
        expect(figures.maxAbsDelta).toBeCloseTo(
          Math.max(...expected.map((p) => p.max_abs_dlogp)),
          9,
        );
      }
    });
  });

  it('the group holding the worst sample of rollout 1 has its mismatch, diluted by its other samples', () => {
    const { traces, joins } = openRun();
    const bySample = new Map(
      joins.extra!.samples.filter((s) => s.file === 1).map((s) => [s.rowId, s]),
    );
    // row 11: the one sample of rollout 1 with a ratio outside [0.5, 2] (expected_extra.json)
    expect(trainFiles[1]['samples_with_ratio_outside_0.5_2']).toEqual([11]);
    const groups = traces[1].perf.rollout.groups;
    const worst = groups.find((g) => g.rowIds.includes(11))!;
    const others = groups.filter((g) => g !== worst);
    const figures = groupExtraFigures(worst.rowIds, (row) => bySample.get(row))!;
    expect(figures.outsideShare).toBeGreaterThan(0);
    for (const g of others)
      expect(groupExtraFigures(g.rowIds, (row) => bySample.get(row))!.outsideShare).toBe(0);
    const sample = trainFiles[1].per_sample.find((p) => p.rollout_position === 11)!;
    expect(figures.outsideShare).toBeLessThan(sample['share_ratio_outside_0.5_2']);
  });

  it('orders the groups by each column in the worker as the view shows them, largest first', () => {
    const { traces, joins } = openRun();
    [0, 1].forEach((file) => {
      const samples = joins.extra!.samples.filter((s) => s.file === file);
      const bySample = new Map(samples.map((s) => [s.rowId, s]));
      const groups = traces[file].perf.rollout.groups;
      const distinct = new Set<GroupExtraKey>();
      for (const key of Object.keys(GROUP_EXTRA_FIGURES) as GroupExtraKey[]) {
        const shown = (g: GroupFigures) =>
          groupExtraFigures(g.rowIds, (row) => bySample.get(row))![key];
        const sorted = groupsByRowFigure(groups, rowFigureParts(key, samples));
        const values = sorted.map(shown);
        // every group has every figure here (staleness 0 included), so none sorts last for lack
        expect(values.every((v) => v !== null)).toBe(true);
        const descending = [...values].sort((a, b) => b! - a!);
        expect(values, key).toEqual(descending);
        if (new Set(values).size > 1) distinct.add(key);
        const reversed = groupsByRowFigure(groups, rowFigureParts(key, samples), true).map(shown);
        expect(reversed, key).toEqual([...descending].reverse());
      }
      // the figures that differ between groups in this run (no retractions, no staleness)
      expect([...distinct].sort()).toEqual([
        'cacheHit',
        'decodePerToken',
        'maxAbsDelta',
        'meanAbsDelta',
        'outsideShare',
      ]);
    });
  });

  it('counts retracted samples and is null without any joined sample', () => {
    const { joins } = openRun();
    const samples = joins.extra!.samples.filter((s) => s.file === 0).slice(0, 4);
    const retracted: RunSampleFigures[] = samples.map((s, k) =>
      k < 2
        ? { ...s, retractions: 3, requests: s.requests.map((r) => ({ ...r, retractions: 3 })) }
        : s,
    );
    const byRow = new Map(retracted.map((s) => [s.rowId, s]));
    const figures = groupExtraFigures(
      retracted.map((s) => s.rowId),
      (row) => byRow.get(row),
    )!;
    expect(figures.retractedSamples).toBe(2);
    expect(figures.retractions).toBe(
      retracted.reduce((n, s) => n + s.requests.reduce((m, r) => m + r.retractions!, 0), 0),
    );
    expect(groupExtraFigures([1000, 1001], () => undefined)).toBeNull();
  });
});
