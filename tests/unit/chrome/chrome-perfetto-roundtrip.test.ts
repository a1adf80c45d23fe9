import { resolve } from 'node:path';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import {
  buildPerfettoTrace,
  writePerfettoJson,
} from '../../../src-main/core/export/perfetto-export';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { SLIME, fixtureSource } from '../../support/fixtures';

describe('a Perfetto export of this app opens again as a Chrome trace', () => {
  it('rollout_agentic.pt -> export (gzipped) -> open: one process, a thread per row, every event', () => {
    const dump = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_agentic.pt'))]);
    const exported = buildPerfettoTrace([
      { name: 'rollout_agentic.pt', rows: dump.rows, globalStart: dump.summary.globalStartSec },
    ]);
    const events = exported.traceEvents;
    const count = (ph: string) => events.filter((e) => e.ph === ph).length;
    // the dump's rows give all three kinds: nested spans, overlapping ones, instant events
    expect([count('X') > 0, count('b') > 0, count('i') > 0]).toEqual([true, true, true]);
    const reopened = openTraceFile([
      bytesSource('rollout_agentic.perfetto.json.gz', writePerfettoJson(exported, true)),
    ]);
    expect(reopened.summary.format).toBe(chromeTraceFormat.id);
    expect(reopened.rows).toHaveLength(1);
    expect(reopened.rows[0].source).toBe('rollout_agentic.pt (pid 1)');
    // complete events are the summary's spans; async pairs are spans too, on their own lanes
    expect(reopened.summary.spans).toBe(count('X'));
    expect(reopened.summary.events).toBe(count('i'));
    const items = unpackRow(reopened.rows[0]).items;
    expect(items.filter((i) => i.type === 'span')).toHaveLength(count('X') + count('b'));
    expect(count('b')).toBe(count('e'));
    // every thread (one per row of the dump, named "#index source") is a lane label
    const labels = new Set(items.map((i) => i.lane_label?.replace(/ \(tid \d+\)$/, '')));
    const threads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name');
    expect(threads).toHaveLength(dump.rows.length);
    for (const thread of threads) expect(labels.has(String(thread.args!.name))).toBe(true);
  });
});
