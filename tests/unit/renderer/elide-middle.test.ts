import { describe, expect, it } from 'vitest';
import { elideMiddle, percentText } from '../../../src-renderer/widgets/elide-middle';

describe('an opening file’s name and percent', () => {
  it('keeps a short name whole and cuts a long one in its middle, keeping its end', () => {
    expect(elideMiddle('rollout_7.pt', 36)).toBe('rollout_7.pt');
    const long = 'big_rollout_dump_from_the_long_run_step_0007.pt';
    const cut = elideMiddle(long, 20);
    expect([...cut]).toHaveLength(20);
    expect(cut).toBe('big_rollou…p_0007.pt');
    expect(long.startsWith(cut.split('…')[0])).toBe(true);
    expect(long.endsWith(cut.split('…')[1])).toBe(true);
    // code points, not UTF-16 units: an emoji is never split
    expect(elideMiddle('😀'.repeat(30), 9)).toBe(`${'😀'.repeat(4)}…${'😀'.repeat(4)}`);
  });

  it('says the share read as a whole percent, 100% only at the last byte', () => {
    expect(percentText(0, 1000)).toBe('0%');
    expect(percentText(505, 1000)).toBe('50%');
    expect(percentText(999_999, 1_000_000)).toBe('99%');
    expect(percentText(1000, 1000)).toBe('100%');
    expect(percentText(5, 0)).toBe('');
  });
});
