import { resolve } from 'node:path';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import { chromeTraceFormat } from '../../../src-main/core/formats/chrome/descriptor';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import type { SpanItem } from '../../../src-main/core/model/row';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

const FIXTURE = resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json');

/**
 * tests/fixtures/chrome/README.md: torch.profiler's legacy exporter, a bare array of 1087
 * `X` events, pid the string "CPU functions", tid 1, 62 distinct names; the counts below are
 * the README's "most frequent" list.
 */
const TOP_NAMES = [
  ['aten::empty_strided', 116],
  ['aten::to', 115],
  ['aten::copy_', 114],
  ['aten::_to_copy', 105],
  ['aten::empty', 46],
  ['aten::as_strided', 39],
  ['aten::add_', 36],
  ['aten::mul_', 36],
  ['aten::resolve_conj', 33],
  ['aten::zero_', 29],
] as const;
const PHASES = ['train_forward_backward', 'grad_sync', 'optimizer_step', 'weight_convert'];

describe('the torch.profiler fixture opens with its README counts', () => {
  const trace = openTraceFile([fixtureSource(FIXTURE)]);
  const row = unpackRow(trace.rows[0]);
  const spans = row.items.filter((i): i is SpanItem => i.type === 'span');

  it('is sniffed as a Chrome trace and has one row: the process "CPU functions"', () => {
    expect(trace.summary.format).toBe(chromeTraceFormat.id);
    expect(trace.summary.rows).toBe(1);
    expect(trace.summary.samples).toBe(1);
    expect(row.source).toBe('CPU functions');
    expect(row.trace_id).toBe('pid CPU functions');
  });

  it('1087 complete events are 1087 spans, no events, no links, no notices', () => {
    expect(trace.summary.spans).toBe(1087);
    expect(trace.summary.events).toBe(0);
    expect(trace.summary.links).toBe(0);
    expect(trace.summary.notices).toEqual([]);
    expect(spans).toHaveLength(1087);
    expect(spans.every((s) => s.state === 'closed_span')).toBe(true);
  });

  it('62 distinct names with the most frequent counted as the README says', () => {
    expect(trace.summary.spanNames).toHaveLength(62);
    expect(trace.summary.spanNames.slice(0, 4)).toEqual(
      TOP_NAMES.slice(0, 4).map(([name, count]) => ({ name, count })),
    );
    const counts = new Map(trace.summary.spanNames.map((n) => [n.name, n.count]));
    for (const [name, count] of TOP_NAMES) expect(counts.get(name), name).toBe(count);
    for (const phase of PHASES) expect(counts.get(phase), phase).toBe(3);
    expect(counts.get('autograd::engine::evaluate_function: AddmmBackward0')).toBe(6);
    expect(counts.get('AddmmBackward0')).toBe(6);
    expect(counts.get('Optimizer.step#AdamW.step')).toBe(3);
    expect(counts.get('Optimizer.zero_grad#AdamW.zero_grad')).toBe(3);
  });

  it('times are the file microseconds as seconds: 875 .. 83896 us', () => {
    expect(row.start).toBeCloseTo(875e-6, 12);
    expect(row.end).toBeCloseTo(83896e-6, 12);
    const step0 = spans.find((s) => s.name === 'rollout_step_0')!;
    // README/python: rollout_step_0 ts 980, dur 65475
    expect(step0.start_ts).toBeCloseTo(980e-6, 12);
    expect(step0.end_ts).toBeCloseTo((980 + 65475) * 1e-6, 12);
  });

  it('nests rollout_step_n > phase > ops on the thread tid 1', () => {
    for (let n = 0; n < 3; n++) {
      const step = spans.find((s) => s.name === `rollout_step_${n}`)!;
      expect(step.depth).toBe(0);
      expect(step.parent_span_id).toBeNull();
      // the step's children: its four phases in order, with a few ops between them
      const children = spans.filter((s) => s.parent_span_id === step.span_id);
      const phases = children.filter((s) => PHASES.includes(s.name));
      expect(phases.map((s) => s.name)).toEqual(PHASES);
      expect(
        children.filter((s) => !PHASES.includes(s.name)).every((s) => s.name.startsWith('aten::')),
      ).toBe(true);
      for (const phase of phases) {
        expect(phase.depth).toBe(1);
        expect(phase.parent_span_name).toBe(`rollout_step_${n}`);
      }
      const forward = phases[0];
      const ops = spans.filter((s) => s.parent_span_id === forward.span_id);
      expect(ops.length).toBeGreaterThan(0);
      for (const op of ops) expect(op.depth).toBe(2);
    }
    expect(spans.every((s) => s.lane === s.depth)).toBe(true);
    expect(new Set(spans.map((s) => s.lane_label))).toEqual(new Set(['tid 1']));
    expect(row.lane_count).toBe(Math.max(...spans.map((s) => s.depth)) + 1);
  });
});
