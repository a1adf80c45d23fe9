import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { IngestMessage } from '../../../src-main/ingest/ingest-protocol';
import { runIngestSession } from '../../../src-main/ingest/ingest-session';
import * as durations from '../../../src-main/core/store/sample-duration';
import { OTLP, SLIME } from '../../support/fixtures';

// What a worker makes before it says a file is open, so that the first clicks on it wait for
// nothing: each row's own duration (a sort by duration asked as a 100k-sample file opened
// waited 0.15 s for the warm-up to make them).

vi.mock('../../../src-main/core/store/sample-duration', async (importOriginal) => {
  const original = await importOriginal<typeof durations>();
  return {
    ...original,
    sampleDurations: vi.fn(original.sampleDurations),
    warmSampleDurations: vi.fn(original.warmSampleDurations),
  };
});

/** A worker's parentPort that notes how often durations were asked when each message left. */
class FakePort extends EventEmitter {
  readonly posted: { message: IngestMessage; durationsAsked: number }[] = [];
  postMessage(message: IngestMessage) {
    // made at once or a step at a time between the calls on every row (the whole-file preview)
    const durationsAsked =
      vi.mocked(durations.sampleDurations).mock.calls.length +
      vi.mocked(durations.warmSampleDurations).mock.calls.length;
    this.posted.push({ message, durationsAsked });
  }
}

describe('a worker’s file, ready when it is said open', () => {
  for (const path of [resolve(SLIME, 'rollout_small.pt'), resolve(OTLP, 'roll_traces.jsonl')])
    it(`each row's own duration is made before "done" is posted (${path.split('/').pop()})`, () => {
      vi.mocked(durations.sampleDurations).mockClear();
      vi.mocked(durations.warmSampleDurations).mockClear();
      const port = new FakePort();
      runIngestSession(port, { sources: [{ kind: 'path', path }] });
      const done = port.posted.find((p) => p.message.type === 'done');
      expect(done?.durationsAsked).toBe(1);
    });
});
