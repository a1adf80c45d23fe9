import type { PyValue } from '../model/py-value';
import type { Row } from '../model/row';
import type { PerfView } from '../api/trace-api';
import { isDict } from './python-values';
import { PD_FLAT_KEYS } from './pd-keys';

/** slime's perf keys: end attr of an `sglang_generate` span_end -> metric name. */
const SLIME_METRICS: [attr: string, metric: string][] = [
  ['e2e_latency', 'perf/request/e2e_latency'],
  ['queue_time', 'perf/request/queue_time'],
  ['decode_throughput', 'perf/decode/throughput'],
  ...PD_FLAT_KEYS.prefill.map(({ key, phase }): [string, string] => [
    key,
    `perf/prefill/${phase}_duration`,
  ]),
  ['pd_transfer_speed_gb_s', 'perf/prefill/transfer_speed_gb_s'],
  ['pd_transfer_total_mb', 'perf/prefill/transfer_total_mb'],
  ['pd_prefill_retry_count', 'perf/prefill/retry_count'],
  ...PD_FLAT_KEYS.decode.map(({ key, phase }): [string, string] => [
    key,
    `perf/decode/${phase}_duration`,
  ]),
];

/** (ours) current dumps: sglang_pd_<role>_<phase> child spans (end attr duration_s). */
const CHILD_PD = /^sglang_pd_(prefill|decode)_(.+)$/;

/**
 * The per-rollout perf summary (TRACE_MODEL section 5): slime's keys exactly, read from the
 * end attrs of `sglang_generate` span ends, plus (ours) request counts and the PD phase keys
 * of current dumps' child spans, where slime's summary has none.
 */
export function buildPerfSummary(samples: PyValue[]): Record<string, number> {
  const values = new Map<string, number[]>();
  const add = (metric: string, value: number) => {
    const list = values.get(metric) ?? [];
    list.push(value);
    values.set(metric, list);
  };
  let requests = 0;
  let profiled = 0;
  for (const event of traceEvents(samples)) {
    const attrs = isDict(event.attrs) ? event.attrs : {};
    const name = event.name;
    if (name === 'sglang_generate' && event.type === 'span_end') {
      requests++;
      let hasPd = false;
      for (const [attr, metric] of SLIME_METRICS) {
        const v = attrs[attr];
        if (typeof v === 'number' && Number.isFinite(v)) {
          add(metric, v);
          if (attr.startsWith('pd_')) hasPd = true;
        }
      }
      if (hasPd) profiled++;
    }
    const child =
      typeof name === 'string' && event.type === 'span_end' ? CHILD_PD.exec(name) : null;
    if (child) {
      const duration = attrs[`pd_${child[1]}_${child[2]}_duration`] ?? attrs.duration_s;
      if (typeof duration === 'number' && Number.isFinite(duration))
        add(`perf/pd_child/${child[1]}/${child[2]}_duration`, duration);
    }
    if (name === 'sglang_pd_summary') {
      for (const [attr, metric] of SLIME_METRICS) {
        const v = attrs[attr];
        if (!attr.endsWith('_duration') && typeof v === 'number' && Number.isFinite(v)) {
          add(metric.replace('perf/', 'perf/pd_child/'), v);
        }
      }
    }
  }
  const out: Record<string, number> = {};
  for (const [metric, list] of [...values.entries()].sort()) {
    // child-span PD keys take slime's names when slime has none for the rollout
    const name = metric.startsWith('perf/pd_child/')
      ? metric.replace('perf/pd_child/', 'perf/')
      : metric;
    if (metric.startsWith('perf/pd_child/') && values.has(name)) continue;
    Object.assign(out, stats(name, list));
  }
  if (requests > 0) {
    out['perf/request/count'] = requests;
    out['perf/request/profiled_count'] = profiled;
  }
  return out;
}

function* traceEvents(samples: PyValue[]): Generator<Record<string, PyValue>> {
  for (const sample of samples) {
    if (!isDict(sample) || !isDict(sample.trace) || !Array.isArray(sample.trace.events)) continue;
    for (const event of sample.trace.events) {
      if (isDict(event)) yield event;
    }
  }
}

/** mean, median (numpy's: mean of the middle two), max, min */
export function stats(metric: string, values: number[]): Record<string, number> {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return {
    [`${metric}/mean`]: pairwiseSum(values) / n,
    [`${metric}/median`]: median,
    [`${metric}/max`]: sorted[n - 1],
    [`${metric}/min`]: sorted[0],
  };
}

/** numpy sums float arrays pairwise (blocks of 8 unrolled); close enough to match to 1e-12. */
function pairwiseSum(values: number[]): number {
  if (values.length <= 8) return values.reduce((s, v) => s + v, 0);
  const mid = Math.floor(values.length / 2);
  return pairwiseSum(values.slice(0, mid)) + pairwiseSum(values.slice(mid));
}

/** Per-request values for histograms, each with the row it came from. */
export function perfSeries(rows: Row[]): PerfView['series'] {
  const series = new Map<
    string,
    { unit: PerfView['series'][number]['unit']; values: number[]; rowIds: number[] }
  >();
  const add = (
    key: string,
    unit: PerfView['series'][number]['unit'],
    value: unknown,
    rowId: number,
  ) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    const entry = series.get(key) ?? { unit, values: [], rowIds: [] };
    entry.values.push(value);
    entry.rowIds.push(rowId);
    series.set(key, entry);
  };
  for (const row of rows) {
    for (const item of row.items) {
      if (item.type !== 'span' || item.end_ts === null) continue;
      const end = item.attrs.end_attrs;
      if (item.name === 'sglang_generate') {
        add('e2e latency', 's', end.e2e_latency, row.row_id);
        add('queue time', 's', end.queue_time, row.row_id);
        add('decode throughput', 'tok/s', end.decode_throughput, row.row_id);
      }
      for (const phase of item.pd?.phases ?? []) {
        add(`${item.pd!.role} ${phase.phase}`, 's', phase.durationSec, row.row_id);
      }
    }
  }
  return [...series.entries()].map(([key, s]) => ({ key, ...s }));
}
