import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src-main/core/api/trace-api';
import type { RunSampleFigures } from '../../../src-main/core/model/run-extra';
import { figuresByRow, orderByFigure } from '../../../src-renderer/run/sample-figures-order';
import type { SampleRowRef } from '../../../src-renderer/run/run-model';
import { deltaColour, stripTokens, tokenAt } from '../../../src-renderer/details/token-strip-model';

const row = (rowId: number): SampleRowRef => ({
  file: 0,
  rowId,
  startSec: rowId,
  endSec: rowId + 1,
  rolloutId: 0,
  stale: false,
  links: 1,
});
const figure = (
  rowId: number,
  meanAbsDelta: number | null,
  outsideShare = 0,
): RunSampleFigures => ({
  file: 0,
  rowId,
  sampleIndex: rowId,
  rolloutId: 0,
  train:
    meanAbsDelta === null
      ? null
      : {
          file: 1,
          index: rowId,
          dpRank: 0,
          mismatch: {
            tokens: 10,
            meanAbsDelta,
            maxAbsDelta: meanAbsDelta * 3,
            meanRatio: 1,
            outsideShare,
          },
          meanEntropy: null,
          meanKl: null,
        },
  requests: [],
  cacheHit: rowId / 10,
  retractions: 0,
  dpRank: 0,
  queueSec: null,
  clientOverheadSec: null,
  staleness: null,
});

describe("the run tab's order by a sample's figures", () => {
  const result = {
    joins: {
      extra: { samples: [figure(0, 0.01), figure(1, 0.5, 0.2), figure(2, null), figure(3, 0.1)] },
    },
  } as unknown as RunResult;
  const rows = [0, 1, 2, 3].map(row);
  const figures = figuresByRow(result);

  it('sorts largest first, samples without the figure last, and keeps start order otherwise', () => {
    expect(orderByFigure(rows, figures, 'mismatch', false).map((r) => r.rowId)).toEqual([
      1, 3, 0, 2,
    ]);
    expect(orderByFigure(rows, figures, 'start', false).map((r) => r.rowId)).toEqual([0, 1, 2, 3]);
    expect(orderByFigure(rows, figures, 'cacheHit', false).map((r) => r.rowId)).toEqual([
      3, 2, 1, 0,
    ]);
  });

  it('filters to samples with a ratio outside [0.5, 2]', () => {
    expect(orderByFigure(rows, figures, 'start', true).map((r) => r.rowId)).toEqual([1]);
  });
});

describe('the per-token strip', () => {
  const tokens = stripTokens({
    log_probs: [-1, -0.5, -2],
    rollout_log_probs: [-1.5, -0.5, -0.5],
    advantages: [1, 1, 1],
    entropy: null,
    loss_masks: [1, 1, 0],
  });

  it('takes Δ = trainer - SGLang per token, with the loss mask', () => {
    expect(tokens.map((t) => [t.delta, t.masked, t.entropy])).toEqual([
      [0.5, true, null],
      [0, true, null],
      [-1.5, false, null],
    ]);
    expect(deltaColour(tokens[0])).toMatch(/^rgba\(220,38,38,/);
    expect(deltaColour(tokens[2])).toBe('rgba(128,128,128,0.35)');
  });

  it('names the token under the pointer', () => {
    expect(tokenAt(0, 300, 3)).toBe(0);
    expect(tokenAt(150, 300, 3)).toBe(1);
    expect(tokenAt(299.9, 300, 3)).toBe(2);
    expect(tokenAt(300, 300, 3)).toBeNull();
  });
});
