import { resolve } from 'node:path';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import type { AttrValue, Attrs, Row, SpanItem } from '../../../src-main/core/model/row';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { sampleToDetails, toDisplayJson } from '../../../src-main/core/open/sample-details';
import { getSpanDetails } from '../../../src-main/core/store/row-views';
import { readLazyValues } from '../../../src-main/ingest/lazy-values';
import { PD_PHASES } from '../../../src-main/core/model/pd-phases';
import { flattenAttrs, searchAttrs, copyText } from '../../../src-renderer/details/attr-search';
import { describeSpanState, pdPhaseRows } from '../../../src-renderer/details/span-facts';
import {
  formatAttrValue,
  formatDuration,
  formatMs,
  formatShare,
  formatWallClock,
} from '../../../src-renderer/details/format-values';
import {
  lengthOf,
  rewardEntries,
  runLengths,
  summariseValues,
  tensorFields,
  tokenCounts,
  valueStats,
  withoutPaths,
} from '../../../src-renderer/details/token-values';
import { SLIME, fixtureSource, readJson } from '../../support/fixtures';

const small = resolve(SLIME, 'rollout_small.pt');
const smallSource = fixtureSource(small);
const opened = openTraceFile([smallSource]);
/** a sample as the details view reads it: through TraceSamples.read, with the file's bytes */
const sampleAt = (rowId: number) => opened.samples.read(rowId, (use) => use(smallSource))!;
const expectedRows = readJson<{ rows: Row[] }>(`${small}.expected.json`).rows;

describe('formatting', () => {
  it('wall clock only for epoch times: a profiler clock (torch, from 0) gets no date', () => {
    // the Chrome fixture starts at 875 us of torch.profiler's own clock
    expect(formatWallClock(875e-6)).toBe('');
    expect(formatWallClock(1.7e9)).toMatch(/^2023-11-1[45] \d\d:\d\d:20\.000$/);
  });

  it('picks a unit by magnitude', () => {
    expect(formatDuration(48.751977)).toBe('48.75 s');
    expect(formatDuration(0.0123)).toBe('12.30 ms');
    expect(formatDuration(0.25)).toBe('250.0 ms');
    expect(formatDuration(0.0000042)).toBe('4.20 µs');
    expect(formatDuration(90)).toBe('1.50 min');
    expect(formatDuration(null)).toBe('—');
    expect(formatMs(0.0123456)).toBe('12.35 ms');
    expect(formatMs(0.0000031)).toBe('0.0031 ms');
    expect(formatShare(1, 3)).toBe('33.3%');
    expect(formatShare(1, 100000)).toBe('<0.1%');
    expect(formatShare(1, 0)).toBe('—');
    // bytes: tests/unit/renderer/byte-size.test.ts
    expect(formatAttrValue({ $bytes: 171707 })).toBe('171.7 kB of bytes');
  });

  it('reads main’s value markers as what they are', () => {
    expect(formatAttrValue({ $lazy: true, length: 807, elemType: 'int' })).toBe(
      'list of 807 int (load on request)',
    );
    expect(formatAttrValue({ $tensor: true, dtype: 'float32', shape: [1, 3, 8, 8] })).toBe(
      'tensor float32 [1 × 3 × 8 × 8]',
    );
    expect(formatAttrValue({ $ndarray: true, dtype: 'int64', shape: [] })).toBe('array int64 []');
    expect(formatAttrValue({ $object: 'os.system', args: ['x'], state: null })).toBe(
      'object os.system("x")',
    );
    expect(formatAttrValue({ a: 1 })).toBe('{"a":1}');
    expect(formatAttrValue(0.1 + 0.2)).toBe('0.3');
  });
});

describe('attribute tables over real span attrs', () => {
  const generate = expectedRows
    .flatMap((r) => r.items)
    .find(
      (i): i is SpanItem =>
        i.type === 'span' && i.name === 'sglang_generate' && i.state === 'closed_span',
    )!;
  const endAttrs = generate.attrs.end_attrs;

  it('keeps every key of flat attrs, in order, with its value', () => {
    const entries = flattenAttrs(endAttrs);
    expect(entries.map((e) => e.key)).toEqual(Object.keys(endAttrs));
    for (const e of entries) expect(e.value).toEqual(endAttrs[e.key]);
  });

  it('spreads nested dicts into dotted keys and leaves lists whole', () => {
    const entries = flattenAttrs({ meta: { a: 1, b: { c: 'x' } }, list: [1, 2], empty: {} });
    expect(entries.map((e) => [e.key, e.text])).toEqual([
      ['meta.a', '1'],
      ['meta.b.c', 'x'],
      ['list', '[1,2]'],
      ['empty', '{}'],
    ]);
  });

  it('searches keys and values, all words, key=value pairs', () => {
    const entries = flattenAttrs(endAttrs);
    const reason = String(endAttrs.finish_reason);
    expect(searchAttrs(entries, 'FINISH').map((e) => e.key)).toEqual(
      Object.keys(endAttrs).filter((k) => k.includes('finish')),
    );
    expect(searchAttrs(entries, `finish_reason=${reason}`).map((e) => e.key)).toEqual([
      'finish_reason',
    ]);
    expect(searchAttrs(entries, 'finish_reason=no-such-value')).toEqual([]);
    expect(searchAttrs(entries, '')).toHaveLength(entries.length);
    expect(copyText('abc')).toBe('abc');
    expect(JSON.parse(copyText(endAttrs))).toEqual(endAttrs);
  });
});

describe('span facts from the store', () => {
  const store = opened.store;
  const find = (pred: (item: Row['items'][number]) => boolean) => {
    for (const row of opened.rows.map(unpackRow)) {
      const index = row.items.findIndex(pred);
      if (index >= 0) return getSpanDetails(store, row.row_id, index);
    }
    throw new Error('not in the fixture');
  };

  it('says why an ongoing span is drawn where it ends', () => {
    const expectedOpen = expectedRows
      .flatMap((r) => r.items)
      .filter((i): i is SpanItem => i.type === 'span' && i.state === 'open_span');
    const reasons = new Set(expectedOpen.map((i) => String(i.attrs.end_attrs.clipped_by)));
    // the reasons slime's cache gives for this fixture, each with the sentence the panel shows
    // (the wording is ours: src-renderer/details/span-facts.ts)
    const sentences: Record<string, string> = {
      row_end: 'drawn until the row’s last event',
      next_sibling_start: 'drawn until the next sibling starts',
      ancestor_end: 'drawn until its closest closed ancestor ends',
    };
    expect(reasons.size).toBeGreaterThan(1);
    for (const reason of reasons) {
      const span = find(
        (i) =>
          i.type === 'span' && i.state === 'open_span' && i.attrs.end_attrs.clipped_by === reason,
      );
      const state = describeSpanState(span);
      expect(state.tone).toBe('ongoing');
      expect(state.detail).toBe(sentences[reason]);
    }
    const orphan = find((i) => i.type === 'orphan_end');
    expect(describeSpanState(orphan).tone).toBe('orphan');
    const closed = find((i) => i.type === 'span' && i.state === 'closed_span');
    expect(describeSpanState(closed)).toEqual({ tone: 'closed', label: 'closed', detail: null });
  });

  it('breaks PD phases down in their fixed order and colours', () => {
    const pd = find(
      (i) => i.type === 'span' && i.pd?.role === 'prefill' && i.pd.phases.length > 1,
    ).pd!;
    const { rows, totalSec } = pdPhaseRows(pd);
    expect(totalSec).toBeCloseTo(
      pd.phases.reduce((s, p) => s + p.durationSec, 0),
      12,
    );
    const order = PD_PHASES.filter((p) => p.role === 'prefill').map((p) => p.phase);
    const positions = rows.map((r) => order.indexOf(r.phase));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const row of rows) {
      expect(row.colour).toBe(
        PD_PHASES.find((p) => p.role === 'prefill' && p.phase === row.phase)!.colour,
      );
      expect(row.ofRequest).toBeCloseTo(row.durationSec / pd.parentDurationSec, 12);
    }
    expect(rows.reduce((s, r) => s + r.ofPhases, 0)).toBeCloseTo(1, 12);
  });
});

describe('sample token fields', () => {
  const row = expectedRows.find((r) => r.status === 'completed')!;
  const fields = sampleToDetails(sampleAt(row.row_id));

  it('counts response_length and the per-token lists without loading them', () => {
    const { responseLength, counts } = tokenCounts(fields);
    expect(responseLength).toBe(fields.response_length);
    const names = counts.map((c) => c.field);
    expect(names).toContain('tokens');
    expect(names).toContain('loss_mask');
    const lossMask = counts.find((c) => c.field === 'loss_mask')!;
    expect(lossMask.lazy).toBe(true);
    // the loss mask covers the response: one entry per response token
    expect(lossMask.length).toBe(fields.response_length);
    expect(lengthOf([1, 2, 3])).toBe(3);
    expect(lengthOf(null)).toBeNull();
  });

  it("a sample's other tensors and lists kept in the file: their dtype, shape and count, loadable", () => {
    // rollout_tensors.pt: torch tensors on every sample (slime/README.md)
    const path = resolve(SLIME, 'rollout_tensors.pt');
    const source = fixtureSource(path);
    const tensorsOpened = openTraceFile([source]);
    const sample = tensorsOpened.samples.read(0, (use) => use(source))!;
    const details = sampleToDetails(sample);
    const found = tensorFields(details);
    const routed = found.find((t) => t.field === 'rollout_routed_experts')!;
    expect(routed.dtype).toBe('int32');
    expect(routed.shape).toEqual([expect.any(Number), 4, 2]);
    expect(routed.length).toBe(routed.shape!.reduce((n, d) => n * d, 1));
    // the token lists have their own section; tensors nested in a dict are found by their keys
    const names = found.map((t) => t.field);
    expect(names).not.toContain('teacher_log_probs');
    expect(names).toContain('multimodal_train_inputs.pixel_values');
    const grid = found.find((t) => t.field === 'multimodal_train_inputs.image_grid_thw')!;
    expect(grid).toMatchObject({
      path: ['multimodal_train_inputs', 'image_grid_thw'],
      shape: [1, 3],
    });
    // what the section offers loads: the values main reads from the file, as many as it says
    for (const { field, path: keys, length } of found) {
      const loaded = readLazyValues(tensorsOpened.format, { kind: 'path', path }, sample, keys);
      expect(loaded.length, field).toBe(length);
      expect(loaded.values, field).toHaveLength(length);
    }
    // a long list kept as a byte range is one too (its count, no shape)
    expect(
      tensorFields({ ids: { $lazy: true, length: 9, elemType: 'int' }, n: 3, tokens: [1] }),
    ).toEqual([{ field: 'ids', path: ['ids'], length: 9, shape: null, dtype: 'int' }]);
    // a marker main sent for another kind of value is no dict to look into
    expect(tensorFields({ a: { $object: 'm.T', args: [], state: { $tensor: true } } })).toEqual([]);
  });

  it("a small numpy array's numbers come with it and are shown (rollout_tensors.pt's prm_scores)", () => {
    const path = resolve(SLIME, 'rollout_tensors.pt');
    const source = fixtureSource(path);
    const sample = openTraceFile([source]).samples.read(0, (use) => use(source))!;
    const metadata = sampleToDetails(sample).metadata as Record<string, AttrValue>;
    // what torch.load gives for samples[0]["metadata"]["prm_scores"] (numpy float32)
    const torchLoad = [
      0.2160659283399582, 0.6784967184066772, 0.33419176936149597, 0.3571036458015442,
    ];
    expect(metadata.prm_scores).toEqual({
      $ndarray: true,
      dtype: 'float32',
      shape: [4],
      values: torchLoad,
    });
    expect(formatAttrValue(metadata.prm_scores)).toBe(
      'array float32 [4]: 0.216066 0.678497 0.334192 0.357104',
    );
    // a large one stays described
    const large = toDisplayJson(
      { $kind: 'ndarray', dtype: 'float32', shape: [65], data: new Uint8Array(260) },
      0,
    );
    expect(large).toEqual({ $ndarray: true, dtype: 'float32', shape: [65] });
  });

  it('the other fields leave out what the tensors section shows, and a dict left empty', () => {
    const t = { $tensor: true, dtype: 'int32', shape: [2] };
    const fields = { a: t, mm: { x: t, y: t }, keep: { x: t, n: 1 }, n: 2 };
    const paths = tensorFields(fields).map((f) => f.path);
    expect(paths).toEqual([['a'], ['mm', 'x'], ['mm', 'y'], ['keep', 'x']]);
    expect(withoutPaths(fields, paths)).toEqual({ keep: { n: 1 }, n: 2 });
    // the sample's own fields are not changed
    expect(fields.mm).toEqual({ x: t, y: t });
    // a key "__proto__" (as JSON.parse makes it from a sample's dict) is a key like any other
    const hostile = JSON.parse(
      '{"__proto__": {"x": {"$tensor": true, "dtype": "int32", "shape": [2]}, "n": 1}}',
    ) as Attrs;
    const found = tensorFields(hostile);
    expect(found.map((f) => f.path)).toEqual([['__proto__', 'x']]);
    const left = withoutPaths(hostile, [found[0].path]);
    expect(Object.getPrototypeOf(left)).toBe(Object.prototype);
    expect(JSON.stringify(left)).toBe('{"__proto__":{"n":1}}');
  });

  it('summarises loaded values compactly', () => {
    const sample = sampleAt(row.row_id);
    const mask = readLazyValues(opened.format, { kind: 'path', path: small }, sample, 'loss_mask');
    const runs = runLengths(mask.values);
    expect(runs.reduce((n, r) => n + r.count, 0)).toBe(mask.length);
    const text = summariseValues('loss_mask', mask.values);
    expect(text.startsWith(`${runs[0].value}×${runs[0].count}`)).toBe(true);

    const logProbs = readLazyValues(
      opened.format,
      { kind: 'path', path: small },
      sample,
      'rollout_log_probs',
    );
    const stats = valueStats(logProbs.values)!;
    expect(stats.count + stats.nonFinite).toBe(logProbs.length);
    expect(stats.max).toBeLessThanOrEqual(0);
    expect(summariseValues('rollout_log_probs', logProbs.values)).toContain(
      `mean ${stats.mean.toFixed(3)}`,
    );

    const tokens = readLazyValues(opened.format, { kind: 'path', path: small }, sample, 'tokens');
    expect(summariseValues('tokens', tokens.values, 5)).toBe(
      `${tokens.values.slice(0, 5).join(' ')} … +${tokens.length - 5}`,
    );
  });

  it('shows a reward as a number or as named numbers', () => {
    expect(rewardEntries(fields.reward)).toEqual([
      { key: '', value: JSON.stringify(fields.reward) },
    ]);
    expect(rewardEntries({ accuracy: 1, format: 0.5 })).toEqual([
      { key: 'accuracy', value: '1' },
      { key: 'format', value: '0.5' },
    ]);
    expect(rewardEntries(null)).toBeNull();
  });
});
