import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { SLIME, fixtureSource } from '../../support/fixtures';

interface ExpectedItem {
  type: string;
  name: string;
  end_ts?: number | null;
  attrs?: { end_attrs?: Record<string, unknown> };
}
interface ExpectedRow {
  row_id: number;
  items: ExpectedItem[];
}

/** slime's own cache for the dump: what the spans are, independent of our reader */
const expectedRows = (name: string): ExpectedRow[] =>
  JSON.parse(readFileSync(resolve(SLIME, `${name}.expected.json`), 'utf8')).rows;

describe('perf series name the spans their values came from', () => {
  it('rollout_small: request figures from sglang_generate, PD phases from their phase spans', () => {
    const { perf } = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_small.pt'))]);
    const series = new Map(perf.series.map((s) => [s.key, s]));
    // slime's cache: the closed sglang_generate spans carrying e2e_latency, and which rows
    const generate = expectedRows('rollout_small.pt').flatMap((row) =>
      row.items
        .filter(
          (i) =>
            i.type === 'span' &&
            i.name === 'sglang_generate' &&
            typeof i.attrs?.end_attrs?.e2e_latency === 'number',
        )
        .map(() => row.row_id),
    );
    expect(generate.length).toBeGreaterThan(0);
    for (const key of ['e2e latency', 'queue time', 'decode throughput']) {
      expect(series.get(key)!.spanNames, key).toEqual(['sglang_generate']);
    }
    expect([...series.get('e2e latency')!.rowIds]).toEqual(generate);
    // the PD phase children (sglang_pd_prefill_forward, ...) are drawn as segments of their
    // phase span (sglang_pd_prefill / sglang_pd_decode in slime's cache), so that span is it
    expect(series.get('prefill forward')!.spanNames).toEqual(['sglang_pd_prefill']);
    expect(series.get('decode forward')!.spanNames).toEqual(['sglang_pd_decode']);
    for (const s of perf.series) expect(s.spanNames.length, s.key).toBe(1);
  });
});
