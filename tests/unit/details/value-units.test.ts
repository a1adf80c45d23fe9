import { describe, expect, it } from 'vitest';
import { formatValueWithUnit } from '../../../src-renderer/details/format-values';

// slime's viewer (tests/fixtures/slime/slime_viewer_example.html, itemTooltipLines) writes
// `_gb_s` values with 2 decimals and GB/s, `_mb` with 1 decimal and MB.
describe('values with the unit their key names', () => {
  it('PD summary fields read as slime’s viewer writes them', () => {
    expect(formatValueWithUnit('pd_transfer_speed_gb_s', 11.7504)).toBe('11.75 GB/s');
    expect(formatValueWithUnit('pd_transfer_total_mb', 83.2213)).toBe('83.2 MB');
    expect(formatValueWithUnit('pd_prefill_forward_duration', 0.0123)).toBe('12.30 ms');
    expect(formatValueWithUnit('pd_prefill_retry_count', 2)).toBe('2');
  });

  it('latencies and times in seconds become durations; throughput gets tok/s', () => {
    expect(formatValueWithUnit('e2e_latency', 26.6128)).toBe('26.61 s');
    expect(formatValueWithUnit('queue_time', 0.000005913)).toBe('5.91 µs');
    expect(formatValueWithUnit('duration_s', 90)).toBe('1.50 min');
    expect(formatValueWithUnit('decode_throughput', 80.153)).toBe('80.2 tok/s');
    expect(formatValueWithUnit('prompt_tokens', 512)).toBe('512');
    // not numbers: as they are
    expect(formatValueWithUnit('e2e_latency', 'n/a')).toBe('n/a');
  });
});
