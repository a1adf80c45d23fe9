import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import {
  buildSampleDurations,
  sampleDurations,
  warmSampleDurations,
} from '../../../src-main/core/store/sample-duration';
import { buildStore } from '../../../src-main/core/store/build-store';
import { point, row, span } from './hand-rows';

/** The definition, by hand and slowly: what buildSampleDurations must give for any rows. */
function durationsByDefinition(rows: ReturnType<typeof row>[]): number[] {
  const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));
  return rows.map((own) => {
    const others = rows.filter(
      (r) => r !== own && own.group_index !== null && r.group_index === own.group_index,
    );
    let first = Infinity;
    let last = -Infinity;
    for (const it of own.items) {
      const start = it.type === 'span' ? it.start_ts : it.ts;
      const end = it.type === 'span' ? it.display_end_ts : it.ts;
      const shared =
        it.type === 'span' &&
        others.some((r) =>
          r.items.some(
            (o) =>
              o.type === 'span' &&
              o.name === it.name &&
              same(o.start_ts, start) &&
              same(o.display_end_ts, end),
          ),
        );
      if (shared) continue;
      if (start < first) first = start;
      if (end > last) last = end;
    }
    return last >= first ? last - first : own.end - own.start;
  });
}

describe('each sample’s own duration', () => {
  it('leaves out spans another row of the same group has, name, start and end alike', () => {
    const shared = () => span({ name: 'group', start_ts: 0, end_ts: 100 });
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 100,
        group_index: 1,
        items: [shared(), span({ name: 'gen', start_ts: 10, end_ts: 30 })],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 100,
        group_index: 1,
        items: [
          shared(),
          span({ name: 'gen', start_ts: 10, end_ts: 50 }),
          point({ name: 'p', ts: 60 }),
        ],
      }),
      // same span, other group: its own
      row({ row_id: 2, start: 0, end: 100, group_index: 2, items: [shared()] }),
      // no group: nothing is shared
      row({ row_id: 3, start: 0, end: 100, group_index: null, items: [shared()] }),
      row({ row_id: 4, start: 0, end: 100, items: [shared()] }),
    ];
    // by hand: row 0 own 10..30, row 1 own 10..60 (the event counts), rows 2-4 the whole span
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([20, 50, 100, 100, 100]);
  });

  it('a row with only shared spans keeps its whole extent; one row’s own repeats are not shared', () => {
    const twin = () => span({ name: 'g', start_ts: 5, end_ts: 9 });
    const rows = [
      row({ row_id: 0, start: 1, end: 12, group_index: 0, items: [twin()] }),
      row({ row_id: 1, start: 2, end: 10, group_index: 0, items: [twin()] }),
      row({ row_id: 2, start: 0, end: 40, group_index: 5, items: [twin(), twin()] }),
      row({ row_id: 3, start: 3, end: 4, group_index: 6, items: [] }),
    ];
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([11, 8, 4, 1]);
  });

  it('a single own instant gives a zero duration; an event is never shared', () => {
    const rows = [
      row({ row_id: 0, start: 0, end: 9, items: [point({ name: 'p', ts: 5 })] }),
      // both rows of group 1 have a zero-length span "z" at 70; row 1's event "z" at 70 is its own
      row({
        row_id: 1,
        start: 60,
        end: 80,
        group_index: 1,
        items: [
          span({ name: 'z', start_ts: 70, end_ts: 70 }),
          point({ name: 'z', ts: 70 }),
          point({ name: 'q', ts: 75 }),
        ],
      }),
      row({
        row_id: 2,
        start: 60,
        end: 80,
        group_index: 1,
        items: [span({ name: 'z', start_ts: 70, end_ts: 70 })],
      }),
    ];
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([0, 5, 20]);
  });

  it('within a group of several rows, a span one row repeats is still its own', () => {
    // row 0 has "tool" 20..30 twice and row 1 has no such span: not shared, row 0's own
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 100,
        group_index: 4,
        items: [
          span({ name: 'group', start_ts: 0, end_ts: 100 }),
          span({ name: 'tool', start_ts: 20, end_ts: 30 }),
          span({ name: 'tool', start_ts: 20, end_ts: 30 }),
        ],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 100,
        group_index: 4,
        items: [
          span({ name: 'group', start_ts: 0, end_ts: 100 }),
          span({ name: 'gen', start_ts: 40, end_ts: 45 }),
        ],
      }),
    ];
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([10, 5]);
  });

  it('rows without a group share nothing, even with each other', () => {
    const same = () => span({ name: 'group', start_ts: 0, end_ts: 100 });
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 100,
        group_index: null,
        items: [same(), span({ name: 'a', start_ts: 1, end_ts: 2 })],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 100,
        group_index: null,
        items: [same(), span({ name: 'a', start_ts: 1, end_ts: 3 })],
      }),
      row({
        row_id: 2,
        start: 0,
        end: 100,
        items: [same(), span({ name: 'a', start_ts: 1, end_ts: 4 })],
      }),
      row({
        row_id: 3,
        start: 0,
        end: 100,
        items: [same(), span({ name: 'a', start_ts: 1, end_ts: 5 })],
      }),
    ];
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([100, 100, 100, 100]);
  });

  it('finds every shared span among many names, starts and ends, in any order', () => {
    // rows 0 and 1 share b 1..2, a 3..9, c 0..4 and a 3..5 (listed in other orders); each
    // also has spans of the same name or start whose end differs, which are its own
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 50,
        group_index: 7,
        items: [
          span({ name: 'c', start_ts: 0, end_ts: 4 }),
          span({ name: 'a', start_ts: 3, end_ts: 9 }),
          span({ name: 'b', start_ts: 1, end_ts: 2 }),
          span({ name: 'a', start_ts: 3, end_ts: 5 }),
          span({ name: 'a', start_ts: 3, end_ts: 21 }),
          span({ name: 'b', start_ts: 11, end_ts: 12 }),
        ],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 50,
        group_index: 7,
        items: [
          span({ name: 'a', start_ts: 3, end_ts: 5 }),
          span({ name: 'b', start_ts: 1, end_ts: 2 }),
          span({ name: 'a', start_ts: 30, end_ts: 33 }),
          span({ name: 'c', start_ts: 0, end_ts: 4 }),
          span({ name: 'a', start_ts: 3, end_ts: 9 }),
          span({ name: 'c', start_ts: 0, end_ts: 40 }),
        ],
      }),
    ];
    // by hand: row 0 own a 3..21 and b 11..12 -> 3..21 = 18; row 1 own a 30..33, c 0..40 -> 40
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([18, 40]);
  });

  it('equals the definition on generated groups: few times, names and ends, some crowded', () => {
    // a seeded generator: many spans alike in two of name, start and end, some NaN and -0
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
    const times = [0, -0, 1, 2, 3.5, NaN];
    const rows = Array.from({ length: 60 }, (_, r) =>
      row({
        row_id: r,
        start: 0,
        end: 100,
        // groups of 1 to 6 rows, the last group crowded (over 64 spans at one start)
        group_index: r < 50 ? Math.floor(r / 6) : r < 55 ? null : 99,
        items: Array.from({ length: r >= 55 ? 40 : 8 }, () =>
          next() < 0.15
            ? point({ name: pick(['e', 'a']), ts: pick(times) })
            : span({
                name: pick(['a', 'b', 'c']),
                start_ts: r >= 55 ? 1 : pick(times),
                end_ts: pick([...times, 9]),
              }),
        ),
      }),
    );
    const got = Array.from(buildSampleDurations(packRows(rows)));
    const expected = durationsByDefinition(rows);
    expect(got).toEqual(expected);
    // spans were found shared: not what the rows give with no groups
    expect(got).not.toEqual(durationsByDefinition(rows.map((r) => ({ ...r, group_index: null }))));
  });

  it('spans whose times are not numbers match as their text did: NaN equals NaN', () => {
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 10,
        group_index: 1,
        items: [
          span({ name: 'x', start_ts: 0, end_ts: NaN }),
          span({ name: 'x', start_ts: 0, end_ts: 8 }),
          span({ name: 'own', start_ts: 2, end_ts: 3 }),
        ],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 10,
        group_index: 1,
        items: [
          span({ name: 'x', start_ts: 0, end_ts: NaN }),
          span({ name: 'x', start_ts: 0, end_ts: 8 }),
          span({ name: 'x', start_ts: NaN, end_ts: 6 }),
        ],
      }),
    ];
    // both x spans shared (NaN end alike); row 0 own 2..3; row 1's x NaN..6 is its own: no
    // extent from NaN, so its whole row
    expect(Array.from(buildSampleDurations(packRows(rows)))).toEqual([1, 10]);
  });

  it("a store's durations are made once, on first use, from its rows", () => {
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 10,
        group_index: 1,
        items: [
          span({ name: 'g', start_ts: 0, end_ts: 10 }),
          span({ name: 'a', start_ts: 1, end_ts: 4 }),
        ],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 10,
        group_index: 1,
        items: [span({ name: 'g', start_ts: 0, end_ts: 10 })],
      }),
    ];
    const store = buildStore({ rows: packRows(rows) });
    const first = sampleDurations(store);
    expect(Array.from(first)).toEqual([3, 10]);
    expect(sampleDurations(store)).toBe(first);
    // another store of the same rows has its own
    expect(sampleDurations(buildStore({ rows: packRows(rows) }))).not.toBe(first);
  });
});

describe('durations made a step at a time (the warm-up)', () => {
  it('25,000 rows in several steps, each the same as made at once; then kept', () => {
    // groups of 4 sharing a group span, each row with one span of its own lasting 1 + r % 7
    const rows = Array.from({ length: 25_000 }, (_, r) =>
      row({
        row_id: r,
        start: 0,
        end: 100,
        group_index: Math.floor(r / 4),
        items: [
          span({ name: 'group', start_ts: 0, end_ts: 100 }),
          span({ name: 'gen', start_ts: 5, end_ts: 6 + (r % 7) }),
        ],
      }),
    );
    const store = buildStore({ rows: packRows(rows) });
    let steps = 0;
    for (const _ of warmSampleDurations(store)) steps++;
    // about 10,000 rows a step
    expect(steps).toBeGreaterThanOrEqual(2);
    const durations = sampleDurations(store);
    expect(Array.from(durations)).toEqual(rows.map((_, r) => 1 + (r % 7)));
    expect(Array.from(durations)).toEqual(Array.from(buildSampleDurations(packRows(rows))));
    // made once: warming again takes no step
    expect([...warmSampleDurations(store)]).toHaveLength(0);
  });
});
