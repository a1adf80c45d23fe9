import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TimeAxis } from '../../../src-renderer/timeline/TimeAxis';
import {
  clockText,
  exactClockText,
  timelineClock,
} from '../../../src-renderer/timeline/timeline-clock';

// Compared rollouts are drawn from their own windows' starts: rollout_8.pt's own work starts
// 3570 s into its file (tests/fixtures/slime/README.md), rollout_7.pt's at 0. The same moment of
// their own work must read the same on both axes, cursors and tooltips.
const B_OWN_START_SEC = 3570;

function tickLabels(html: string): string[] {
  return [...html.matchAll(/<text[^>]*class="axis-label"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

function axisLabels(window: { startSec: number; endSec: number }, zeroSec: number): string[] {
  return tickLabels(
    renderToStaticMarkup(
      <TimeAxis
        window={window}
        width={1000}
        left={0}
        clock={timelineClock(zeroSec, null)}
        onZoomTo={() => {}}
      />,
    ),
  );
}

describe("a timeline's clock", () => {
  it('labels the axis from its own zero: A and B read alike over the same part of their own windows', () => {
    const a = axisLabels({ startSec: -1.75, endSec: 60 }, 0);
    const b = axisLabels({ startSec: B_OWN_START_SEC - 1.75, endSec: B_OWN_START_SEC + 60 }, 3570);
    expect(a[0]).toBe('0:00');
    expect(a.at(-1)).toBe('1:00');
    expect(b).toEqual(a);
  });

  it('keeps the file start as zero where no origin is given (a single file)', () => {
    const labels = axisLabels({ startSec: 3570, endSec: 3630 }, 0);
    expect(labels[0]).toBe('0:59:30');
  });

  it('reads cursor and tooltip times from the same zero, exact ones too', () => {
    const b = timelineClock(B_OWN_START_SEC, null);
    expect(clockText(b, B_OWN_START_SEC + 22.95, 2)).toBe('0:22.95');
    expect(exactClockText(b, B_OWN_START_SEC + 22.950001)).toBe('0:22.950001');
    // a moment before the own window (an earlier attempt) reads negative
    expect(clockText(b, B_OWN_START_SEC - 90, 1)).toBe('-1:30.0');
  });

  it('leaves the wall clock absolute: it is the time of day, whatever the origin', () => {
    // file start 2024-01-01T10:00:00Z
    const start = Date.UTC(2024, 0, 1, 10) / 1000;
    const clock = timelineClock(B_OWN_START_SEC, start);
    expect(clockText(clock, B_OWN_START_SEC, 0)).toBe('10:59:30');
    expect(exactClockText(clock, B_OWN_START_SEC)).toBe('10:59:30.000000');
    const labels = tickLabels(
      renderToStaticMarkup(
        <TimeAxis
          window={{ startSec: B_OWN_START_SEC, endSec: B_OWN_START_SEC + 60 }}
          width={1000}
          left={0}
          clock={clock}
          onZoomTo={() => {}}
        />,
      ),
    );
    expect(labels[0]).toBe('10:59:30');
  });
});
