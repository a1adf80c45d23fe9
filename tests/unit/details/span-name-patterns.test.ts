import { readFileSync } from 'node:fs';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spanNameChoices } from '../../../src-renderer/toolbar/span-name-patterns';
import { spanNamePattern } from '../../../src-main/core/model/span-name-pattern';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { fixtureSource } from '../../support/fixtures';
import { buildStore } from '../../../src-main/core/store/build-store';
import { queryRows } from '../../../src-main/core/store/query-rows';
import type { Row } from '../../../src-main/core/model/row';
import { OTLP, SLIME, readJson } from '../../support/fixtures';

/** Span names and counts of SGLang's collector file, read here straight from its JSON lines. */
function sglangSpanNames(): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const line of readFileSync(resolve(OTLP, 'sglang_otel_trace.json'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const doc = JSON.parse(line) as {
      resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
    };
    for (const rs of doc.resourceSpans)
      for (const ss of rs.scopeSpans)
        for (const s of ss.spans) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => ({ name, count }));
}

describe('span-name menu patterns', () => {
  it('replaces ids, not words', () => {
    expect(spanNamePattern('decode Req 3c6be75c')).toBe('decode Req *');
    expect(spanNamePattern('DecodeTokenizer(host:dc58ba26 | pid:38457)')).toBe(
      'DecodeTokenizer(host:* | pid:*)',
    );
    expect(spanNamePattern('mooncake transfer worker 0 [TP 1]')).toBe(
      'mooncake transfer worker 0 [TP 1]',
    );
    expect(spanNamePattern('prefill_forward')).toBe('prefill_forward');
  });

  it('folds names as the perf view does: step 123 stays, a UUID in capitals folds, req_ids stay', () => {
    // names the menu folded otherwise than the perf view's figures before one function served both
    const names = [
      'step 123',
      'step 124',
      'transfer 0123-4567-89AB',
      'transfer 89ab-cdef-0123',
      'req_1a2b3c4d',
      'req_5e6f7a8b',
    ].map((name) => ({ name, count: 1 }));
    expect(spanNameChoices(names).map((c) => c.value)).toEqual([
      'transfer *',
      'req_1a2b3c4d',
      'req_5e6f7a8b',
      'step 123',
      'step 124',
    ]);
  });

  it("the SGLang file's menu entries are its perf view's lines: the same names folded alike", () => {
    const trace = openTraceFile([fixtureSource(resolve(OTLP, 'sglang_otel_trace.json'))]);
    const choices = spanNameChoices(trace.summary.spanNames);
    const menu = new Map(choices.map((c) => [c.value, c]));
    // the perf view's lines: closed spans by pattern (core/open/build-perf-view.ts)
    const folded = trace.perf.durations.filter((d) => d.name.includes('*'));
    expect(folded.map((d) => d.name)).toContain('decode Req *');
    for (const line of folded) {
      // one name alone stays itself in the menu; several are the perf line's pattern
      const names = trace.summary.spanNames.filter((n) => spanNamePattern(n.name) === line.name);
      const entry = menu.get(names.length === 1 ? names[0].name : line.name);
      expect(entry, line.name).toBeDefined();
      expect(entry!.names).toBe(names.length);
      // the menu counts every span of the names, the perf line the closed ones
      expect(entry!.count).toBeGreaterThanOrEqual(line.valuesSec.length);
    }
    expect(menu.get('decode Req *')!.count).toBe(
      folded.find((d) => d.name === 'decode Req *')!.valuesSec.length,
    );
    // and every name the menu folds is one the perf view folds into that line
    for (const { name } of trace.summary.spanNames) {
      const pattern = spanNamePattern(name);
      expect(menu.has(pattern) || menu.has(name), name).toBe(true);
    }
  });

  it('groups the SGLang file’s per-request names into one entry each (70 names)', () => {
    const names = sglangSpanNames();
    expect(names.length).toBe(70);
    const choices = spanNameChoices(names);
    const decode = choices.find((c) => c.value === 'decode Req *')!;
    const perRequest = names.filter((n) => /^decode Req [0-9a-f]{8}$/.test(n.name));
    expect(perRequest.length).toBeGreaterThan(1);
    expect(decode).toEqual({
      value: 'decode Req *',
      count: perRequest.length,
      names: perRequest.length,
    });
    expect(choices.some((c) => /^decode Req [0-9a-f]{8}$/.test(c.value))).toBe(false);
    // every span is still counted once
    expect(choices.reduce((n, c) => n + c.count, 0)).toBe(names.reduce((n, c) => n + c.count, 0));
    expect(choices.length).toBeLessThan(names.length);
  });

  it('the row query takes a pattern: each * stands for any text', () => {
    const { rows } = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_agentic.pt.expected.json'));
    const store = buildStore({ rows: packRows(rows) });
    const byPattern = Array.from(
      queryRows(store, { sort: 'row_id', filter: { spanName: 'sglang_*' } }),
    );
    const expected = rows
      .filter((r) => r.items.some((i) => /^sglang_.+$/.test(i.name)))
      .map((r) => r.row_id);
    expect(expected.length).toBeGreaterThan(0);
    expect(byPattern).toEqual(expected);
    // an exact name still means only itself
    expect(
      Array.from(queryRows(store, { sort: 'row_id', filter: { spanName: 'sglang_' } })),
    ).toEqual([]);
  });
});
