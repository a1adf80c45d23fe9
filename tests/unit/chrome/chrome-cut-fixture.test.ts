import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { FIXTURES } from '../../support/fixtures';

const FIXTURE = new Uint8Array(
  readFileSync(resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json')),
);

/** What opening the first `length` bytes of the fixture gives: its spans and first notice. */
function openPrefix(length: number): { spans: number; notice: string | undefined } {
  const opened = chromeTraceFormat.open([bytesSource('cut.json', FIXTURE.subarray(0, length))], {});
  return { spans: opened.counts!.spans, notice: opened.notices[0] };
}

/** Where the fixture's first event ends: a cut before it leaves no whole event. */
const FIRST_EVENT_END = new TextDecoder().decode(FIXTURE).indexOf('}, {') + 1;

describe('the fixture cut at any point', () => {
  it('opens the events before the cut, more the later the cut, and says where it is cut', () => {
    let before = 0;
    for (let length = 2; length < FIXTURE.length - 1; length += 97) {
      if (length < FIRST_EVENT_END) {
        // cut inside its first event: no event is whole, the file fails with the cut's code
        expect(() => openPrefix(length)).toThrow(
          expect.objectContaining({ code: 'chrome-trace/truncated' }),
        );
        continue;
      }
      const { spans, notice } = openPrefix(length);
      expect(spans).toBeGreaterThanOrEqual(before);
      expect(spans).toBeLessThan(1087);
      // a cut right after an event (the array's ] lost) is what the format allows
      if (notice !== 'the event array is not closed (a writer that stopped)') {
        expect(notice).toMatch(
          new RegExp(`^chrome-trace/truncated: cut\\.json is cut off at byte ${length}, `),
        );
      }
      before = spans;
    }
    expect(before).toBeGreaterThan(1000);
    expect(openPrefix(FIXTURE.length)).toEqual({ spans: 1087, notice: undefined });
  });

  it('cut right after its last event (the ] lost) it opens whole, as the format allows', () => {
    const text = new TextDecoder().decode(FIXTURE);
    expect(openPrefix(text.lastIndexOf('}') + 1).spans).toBe(1087);
  });

  it('cut before its first event: "[" opens empty (an array not closed), no byte is no JSON', () => {
    expect(openPrefix(1).spans).toBe(0);
    expect(() => openPrefix(0)).toThrow(expect.objectContaining({ code: 'chrome-trace/empty' }));
  });
});
