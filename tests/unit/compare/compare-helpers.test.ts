import { describe, expect, it } from 'vitest';
import {
  changeVerdict,
  metricDirection,
  relativeChange,
} from '../../../src-renderer/compare/metric-direction';
import { sharedHistogram } from '../../../src-renderer/compare/histogram-bins';

describe('compare verdicts', () => {
  it('knows which way is better for slime perf keys', () => {
    expect(metricDirection('perf/request/e2e_latency/mean')).toBe('lower-better');
    expect(metricDirection('perf/decode/throughput/median')).toBe('higher-better');
    expect(metricDirection('perf/prefill/transfer_speed_gb_s/max')).toBe('higher-better');
    expect(metricDirection('rollout/samples')).toBe('neutral');
  });

  it('colours a shrinking latency better and a shrinking throughput worse', () => {
    expect(changeVerdict('perf/request/e2e_latency/mean', 10, 8)).toBe('better');
    expect(changeVerdict('perf/decode/throughput/mean', 100, 80)).toBe('worse');
    expect(changeVerdict('perf/decode/throughput/mean', 100, 100.1)).toBe('same');
    expect(changeVerdict('perf/decode/throughput/mean', null, 1)).toBe('neutral');
    expect(relativeChange(10, 15)).toBeCloseTo(0.5);
    expect(relativeChange(0, 1)).toBeNull();
  });
});

describe('shared histogram', () => {
  it('counts both samples over the same bins and loses no value', () => {
    const h = sharedHistogram([0, 1, 2, 3], [3, 4, 5, 6, 10], 5);
    expect(h.edges[0]).toBe(0);
    expect(h.edges.at(-1)).toBe(10);
    expect(h.a.reduce((s, n) => s + n, 0)).toBe(4);
    expect(h.b.reduce((s, n) => s + n, 0)).toBe(5);
    expect(h.b[4]).toBe(1); // 10 falls in the last bin
  });
});
