import { describe, expect, it } from 'vitest';
import {
  changeVerdict,
  metricDirection,
  relativeChange,
} from '../../../src-renderer/compare/metric-direction';

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
