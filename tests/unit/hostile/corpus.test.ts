import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { HOSTILE_CASES } from './corpus';

// The memory bound the README states: a small constant times the input plus a fixed floor.
const MEMORY_FACTOR = 16;
const MEMORY_FLOOR = 256 * 1024 * 1024;

describe('hostile corpus: every case opens or fails with its code, in bounded time and memory', () => {
  for (const c of HOSTILE_CASES) {
    it(`${c.id} (issue ${c.issue}): ${c.why}`, () => {
      const bytes = c.make();
      global.gc?.();
      const before = process.memoryUsage().rss;
      const started = performance.now();
      let outcome: { code: string } | { opened: ReturnType<typeof openTraceFile> };
      try {
        outcome = { opened: openTraceFile([bytesSource(c.name, bytes)]) };
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
        outcome = { code: error.code };
      }
      const ms = performance.now() - started;
      const grew = process.memoryUsage().rss - before;
      expect(ms).toBeLessThan(c.maxMs ?? 5_000);
      expect(grew).toBeLessThan(MEMORY_FACTOR * bytes.length + MEMORY_FLOOR);
      if ('code' in c.expect) {
        expect('code' in outcome ? outcome.code : 'opened').toBe(c.expect.code);
      } else {
        expect('opened' in outcome ? 'opened' : outcome.code).toBe('opened');
        if ('opened' in outcome) c.expect.opens(outcome.opened);
      }
    });
  }
});
