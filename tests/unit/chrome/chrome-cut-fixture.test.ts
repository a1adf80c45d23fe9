import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { FIXTURES } from '../../support/fixtures';

const FIXTURE = new Uint8Array(
  readFileSync(resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json')),
);

/** What opening the first `length` bytes of the fixture gives: spans, or an error code. */
function openPrefix(length: number): number | string {
  try {
    const opened = chromeTraceFormat.open(
      [bytesSource('cut.json', FIXTURE.subarray(0, length))],
      {},
    );
    return opened.counts!.spans;
  } catch (error) {
    if (error instanceof FormatError) return error.code;
    throw error;
  }
}

describe('the fixture cut at any point', () => {
  it('either opens the events before the cut or is chrome-trace/truncated, never another error', () => {
    const seen = new Set<string>();
    for (let length = 1; length < FIXTURE.length; length += 97) {
      const result = openPrefix(length);
      if (typeof result === 'number') expect(result).toBeLessThan(1087);
      else expect(result).toBe('chrome-trace/truncated');
      seen.add(typeof result);
    }
    expect(seen.has('string')).toBe(true);
    expect(openPrefix(FIXTURE.length)).toBe(1087);
  });

  it('cut right after its last event (the ] lost) it opens whole, as the format allows', () => {
    const text = new TextDecoder().decode(FIXTURE);
    expect(openPrefix(text.lastIndexOf('}') + 1)).toBe(1087);
  });
});
