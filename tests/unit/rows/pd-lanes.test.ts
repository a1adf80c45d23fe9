import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { buildRows } from '../../../src-main/core/rows/build-rows';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import type { Row, SpanItem } from '../../../src-main/core/model/row';
import { SLIME, fixtureSource } from '../../support/fixtures';

const rowsOf = (name: string) =>
  buildRows(readSlimeDump(fixtureSource(resolve(SLIME, name))).samples).rows;
const pdSpans = (row: Row) =>
  row.items.filter((i): i is SpanItem => i.type === 'span' && i.pd !== undefined);

describe('PD lanes (ours) for every dump generation', () => {
  it('current dumps: sglang_pd_prefill/decode children become [P]/[D] lanes with phases in order', () => {
    const raw = rowsOf('rollout_small.pt');
    const withPd = raw.find((r) => r.items.some((i) => i.name === 'sglang_pd_prefill'))!;
    const view = buildPdView(withPd);
    const prefill = pdSpans(view).filter((s) => s.pd!.role === 'prefill');
    const decode = pdSpans(view).filter((s) => s.pd!.role === 'decode');
    expect(prefill.length).toBe(withPd.items.filter((i) => i.name === 'sglang_pd_prefill').length);
    expect(decode.length).toBe(withPd.items.filter((i) => i.name === 'sglang_pd_decode').length);
    // phases follow the fixed order and equal the phase children's own durations
    const child = withPd.items.find((i) => i.name === 'sglang_pd_prefill_forward') as SpanItem;
    const forward = prefill[0].pd!.phases.find((p) => p.phase === 'forward')!;
    expect(forward.durationSec).toBe(child.attrs.end_attrs.pd_prefill_forward_duration);
    expect(prefill[0].pd!.phases.map((p) => p.phase)).toEqual(
      ['bootstrap_queue', 'bootstrap', 'alloc_wait', 'forward', 'transfer_queue'].filter((p) =>
        prefill[0].pd!.phases.some((q) => q.phase === p),
      ),
    );
    // the phase children are segments now, not spans of their own
    expect(view.items.some((i) => /^sglang_pd_prefill_/.test(i.name))).toBe(false);
    // [P] lanes below the real ones, [D] below those
    const realMax = Math.max(
      ...view.items.filter((i) => !(i.type === 'span' && i.pd)).map((i) => i.lane),
    );
    expect(Math.min(...prefill.map((s) => s.lane))).toBe(realMax + 1);
    expect(Math.min(...decode.map((s) => s.lane))).toBeGreaterThan(
      Math.max(...prefill.map((s) => s.lane)),
    );
  });

  it('June dumps: slime’s virtual [P]/[D] spans get phases from the flat keys, packed into one lane each', () => {
    const raw = rowsOf('rollout_pd_legacy.pt');
    const multi = raw.find(
      (r) => r.items.filter((i) => i.name === 'sglang_generate [P]').length >= 1,
    )!;
    const view = buildPdView(multi);
    const prefill = pdSpans(view).filter((s) => s.pd!.role === 'prefill');
    expect(prefill.length).toBe(multi.items.filter((i) => i.name === 'sglang_generate [P]').length);
    const parent = multi.items.find(
      (i) => i.name === 'sglang_generate' && i.type === 'span',
    ) as SpanItem;
    const phase = prefill[0].pd!.phases.find((p) => p.phase === 'forward')!;
    expect(phase.durationSec).toBe(parent.attrs.end_attrs.pd_prefill_forward_duration);
    // requests of one sample do not overlap: one [P] lane and one [D] lane
    expect(new Set(prefill.map((s) => s.lane)).size).toBe(1);
  });

  it('March-June dumps: the unprefixed keys are read as prefill phases', () => {
    const row: Row = {
      ...rowsOf('rollout_nopd.pt')[0],
      items: [
        {
          type: 'span',
          state: 'closed_span',
          name: 'sglang_generate',
          start_ts: 10,
          end_ts: 12,
          display_end_ts: 12,
          attempt: 0,
          span_id: 'g',
          parent_span_id: null,
          parent_span_name: null,
          lane: 0,
          depth: 0,
          attrs: {
            start_attrs: {},
            end_attrs: {
              pd_bootstrap_duration: 0.25,
              pd_alloc_waiting_duration: 0.5,
              pd_decode_forward_duration: 1,
            },
          },
        },
      ],
    };
    const view = buildPdView(row);
    const prefill = pdSpans(view).find((s) => s.pd!.role === 'prefill')!;
    expect(prefill.pd!.phases).toEqual([
      { phase: 'bootstrap', durationSec: 0.25 },
      { phase: 'alloc_wait', durationSec: 0.5 },
    ]);
    expect(prefill.lane).toBe(1);
  });
});
