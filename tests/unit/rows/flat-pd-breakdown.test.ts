import { describe, expect, it } from 'vitest';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildOwnBreakdown } from '../../../src-main/core/rows/wall-time-breakdown';
import { layOutFlatPdPhases } from '../../../src-main/core/rows/flat-pd-stretches';
import {
  WALL_TIME_CATEGORIES,
  type WallTimeCategory,
} from '../../../src-main/core/model/rollout-figures';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { ev, sampleWith } from './events';

/**
 * One request of 10 s (1000-1010) with queue_time 0.5 and PD phases prefill 0.25 + 1.25 and
 * decode 0.5 + 5.5, written as each dump generation writes it (TRACE_MODEL section 4).
 */
const PREFILL = { bootstrap_queue: 0.25, forward: 1.25 };
const DECODE = { prealloc: 0.5, forward: 5.5 };
const REQUEST = { start: 1000, end: 1010, queue: 0.5 };

/** current slime: sglang_pd_prefill / _decode children, phases in sequence from the start */
function currentDump(): PyValue[] {
  const out: PyValue[] = [
    ev('span_start', 'generate_and_rm', REQUEST.start, { span_id: 'root' }),
    ev('span_start', 'sglang_generate', REQUEST.start, { span_id: 'g', parent_span_id: 'root' }),
  ];
  let t = REQUEST.start;
  for (const [role, phases] of [
    ['prefill', PREFILL],
    ['decode', DECODE],
  ] as const) {
    out.push(ev('span_start', `sglang_pd_${role}`, t, { span_id: role, parent_span_id: 'g' }));
    for (const [phase, seconds] of Object.entries(phases)) {
      const id = `${role}_${phase}`;
      out.push(ev('span_start', `sglang_pd_${id}`, t, { span_id: id, parent_span_id: role }));
      t += seconds;
      out.push(
        ev('span_end', `sglang_pd_${id}`, t, {
          span_id: id,
          attrs: { [`pd_${id}_duration`]: seconds },
        }),
      );
    }
    out.push(ev('span_end', `sglang_pd_${role}`, t, { span_id: role }));
  }
  out.push(
    ev('span_end', 'sglang_generate', REQUEST.end, {
      span_id: 'g',
      attrs: { queue_time: REQUEST.queue },
    }),
    ev('span_end', 'generate_and_rm', REQUEST.end, { span_id: 'root' }),
  );
  return out;
}

/** June 2026: the same durations as flat keys on the request's end attrs */
function flatDump(keys: Record<string, PyValue>): PyValue[] {
  return [
    ev('span_start', 'generate_and_rm', REQUEST.start, { span_id: 'root' }),
    ev('span_start', 'sglang_generate', REQUEST.start, { span_id: 'g', parent_span_id: 'root' }),
    ev('span_end', 'sglang_generate', REQUEST.end, {
      span_id: 'g',
      attrs: { queue_time: REQUEST.queue, ...keys },
    }),
    ev('span_end', 'generate_and_rm', REQUEST.end, { span_id: 'root' }),
  ];
}

const JUNE_KEYS = {
  pd_prefill_bootstrap_queue_duration: PREFILL.bootstrap_queue,
  pd_prefill_forward_duration: PREFILL.forward,
  pd_decode_prealloc_duration: DECODE.prealloc,
  pd_decode_forward_duration: DECODE.forward,
};

/** The breakdown of a one-sample file over the request's 10 s, rows as a file keeps them. */
function breakdownOf(events: PyValue[]): Record<WallTimeCategory, number> {
  const rows = buildRows([sampleWith(events)]).rows.map((row) => buildPdView(row));
  const window = { startSec: 0, endSec: 10, durationSec: 10, kind: 'own' as const, label: '' };
  return buildOwnBreakdown(packRows(rows), window, REQUEST.start).seconds;
}

function seconds(some: Partial<Record<WallTimeCategory, number>>) {
  return Object.fromEntries(WALL_TIME_CATEGORIES.map((c) => [c, some[c] ?? 0]));
}

describe('what kept the rollout open: flat-key PD requests split into their phases', () => {
  // queue 1000-1000.5 (over the first prefill phase), prefill to 1001.5, decode to 1007.5,
  // the rest of the request (2.5 s) generation
  const expected = seconds({ queueing: 0.5, prefill: 1, decode: 6, 'unsplit request': 2.5 });

  it('a current dump’s request: its sglang_pd_* children (the reference)', () => {
    expect(breakdownOf(currentDump())).toEqual(expected);
  });

  it('the same request with June 2026 flat keys counts the same', () => {
    expect(breakdownOf(flatDump(JUNE_KEYS))).toEqual(expected);
  });

  it('older unprefixed keys (pd_bootstrap_duration, pd_alloc_waiting_duration) count as prefill', () => {
    const older = breakdownOf(
      flatDump({ pd_bootstrap_duration: 1, pd_alloc_waiting_duration: 0.5 }),
    );
    // prefill 1000-1001.5, the first 0.5 s of it queueing; no decode keys
    expect(older).toEqual(seconds({ queueing: 0.5, prefill: 1, 'unsplit request': 8.5 }));
  });

  it('decode keys alone: decode from the request’s start', () => {
    const decodeOnly = breakdownOf(
      flatDump({ pd_decode_forward_duration: 4, pd_prefill_forward_duration: 0 }),
    );
    expect(decodeOnly).toEqual(seconds({ queueing: 0.5, decode: 3.5, 'unsplit request': 6 }));
  });
});

describe('layOutFlatPdPhases', () => {
  const phase = (durationSec: number) => ({ phase: 'forward', durationSec });

  it('prefill then decode, in sequence from the request’s start', () => {
    expect(
      layOutFlatPdPhases(
        { start: 100, end: 110 },
        { decode: [phase(4), phase(1)], prefill: [phase(2)] },
      ),
    ).toEqual([
      { role: 'prefill', start: 100, end: 102 },
      { role: 'decode', start: 102, end: 107 },
    ]);
  });

  it('phases longer than the request are shrunk to it in proportion, as the lanes draw them', () => {
    // 5 + 15 s of phases in a 10 s request: half scale
    expect(
      layOutFlatPdPhases({ start: 100, end: 110 }, { prefill: [phase(5)], decode: [phase(15)] }),
    ).toEqual([
      { role: 'prefill', start: 100, end: 102.5 },
      { role: 'decode', start: 102.5, end: 110 },
    ]);
  });

  it('no positive phase, no stretch', () => {
    expect(layOutFlatPdPhases({ start: 100, end: 110 }, { prefill: [phase(0)] })).toEqual([]);
  });
});
