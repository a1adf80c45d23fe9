import { isDict, type PyValue } from '../model/py-value';
import { PackedItemCursor } from './packed-items';
import type { PackedRow } from '../model/row';
import type { PerfView } from '../model/perf';
import { scalarText } from './python-values';
import { eventFields, newEventFields } from './trace-event-record';
import { PD_FLAT_KEYS, PD_OLDER_PREFILL_KEYS } from './pd-keys';
import { smallestFrom, valueOfRank } from '../model/rank-of';

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

/** every PD span's name starts so: other spans skip the regex */
const PD_PREFIX = 'sglang_pd_';
/** (ours) current dumps: sglang_pd_<role>_<phase> child spans (end attr duration_s). */
const CHILD_PD = /^sglang_pd_(prefill|decode)_(.+)$/;
/** (ours) spans and events that show a request was PD-profiled, in current dumps */
const PD_MARKER = /^sglang_pd_(prefill|decode|summary)$/;
/** (ours) metrics only kept when slime's summary has no key of the same name */
const FALLBACK = 'perf/ours-fallback/';

/** (ours) a PD summary event's counters (pd_ keys that are no phase duration), fallback names */
const PD_SUMMARY_METRICS: [attr: string, metric: string][] = SLIME_METRICS.filter(
  ([attr]) => attr.startsWith('pd_') && !attr.endsWith('_duration'),
).map(([attr, metric]) => [attr, metric.replace('perf/', FALLBACK)]);

/** A PD phase child span's end attr and fallback metric (CHILD_PD), or null for another span. */
interface ChildPd {
  key: string;
  metric: string;
}

/**
 * ChildPd by span name, made once per name: a dump has a few names, and the key built per span
 * (a new string each time, then looked up in the attrs) was most of this step's time.
 */
const childPdByName = new Map<string, ChildPd | null>();
function childPdOf(name: string): ChildPd | null {
  let known = childPdByName.get(name);
  if (known !== undefined) return known;
  const match = CHILD_PD.exec(name);
  known = match
    ? {
        key: `pd_${match[1]}_${match[2]}_duration`,
        metric: `${FALLBACK}${match[1]}/${match[2]}_duration`,
      }
    : null;
  // names come from files: a dump of a million distinct names must not keep them all
  if (childPdByName.size < 4096) childPdByName.set(name, known);
  return known;
}

/** the attrs of an event without any (one object for all: read, never written) */
const NO_ATTRS: Readonly<Record<string, PyValue>> = Object.freeze({});

/** slime's test: an int or float, not a bool, finite. */
function finiteNumber(value: PyValue | undefined): number | null {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The per-rollout perf summary (TRACE_MODEL section 5): slime's keys exactly, read from the
 * end attrs of `sglang_generate` span ends, plus (ours) `perf/request/count`,
 * `perf/request/profiled_count` (requests with any PD timing, in any dump generation) and,
 * where slime's summary has none, PD keys under slime's names from current dumps'
 * sglang_pd_* children and from the older unprefixed prefill keys.
 */
export function buildPerfSummary(samples: PyValue[]): Record<string, number> {
  const summary = new PerfSummaryBuilder();
  for (const sample of samples) summary.add(sample);
  return summary.result();
}

/** A PerfSummaryBuilder's values and counts (structured-cloneable). */
export interface PerfSummaryTally {
  values: Map<string, number[]>;
  requests: number;
  profiled: number;
}

/**
 * buildPerfSummary one sample at a time, as a dump is read: a sample's trace can be let go
 * once it was added (the summary keeps numbers only).
 */
export class PerfSummaryBuilder {
  private values = new Map<string, number[]>();
  private requests = 0;
  private profiled = 0;

  private push(metric: string, value: number) {
    const list = this.values.get(metric);
    if (list) list.push(value);
    else this.values.set(metric, [value]);
  }

  add(sample: PyValue): void {
    if (!isDict(sample) || !isDict(sample.trace) || !Array.isArray(sample.trace.events)) return;
    // the events as they are (no filtered copy, no set unless a PD marker is met: a sample's
    // garbage otherwise)
    const events = sample.trace.events;
    // the span ids PD markers name as their parent (a set only once a marker is met)
    let pdParents: Set<string> | null = null;
    // requests with no PD figure of their own: profiled if a marker names them, which a later
    // event may do (one pass over the events, not a pass for the markers first)
    let unprofiled: PyValue[] | null = null;
    const fields = newEventFields();
    for (const item of events) {
      const event = eventFields(item, fields);
      if (event === null) continue;
      const name = event.name;
      // (the prefix first: a regex per event was a tenth of this step)
      if (
        typeof name === 'string' &&
        name.startsWith(PD_PREFIX) &&
        PD_MARKER.test(name) &&
        event.parent_span_id
      )
        (pdParents ??= new Set()).add(scalarText(event.parent_span_id) ?? '');
      const attrs = isDict(event.attrs) ? event.attrs : NO_ATTRS;
      if (name === 'sglang_generate' && event.type === 'span_end') {
        this.requests++;
        let hasPd = false;
        for (const [attr, metric] of SLIME_METRICS) {
          const v = finiteNumber(attrs[attr]);
          if (v === null) continue;
          this.push(metric, v);
          if (attr.startsWith('pd_')) hasPd = true;
        }
        for (const { key, phase } of PD_OLDER_PREFILL_KEYS) {
          const v = finiteNumber(attrs[key]);
          if (v === null) continue;
          this.push(`${FALLBACK}prefill/${phase}_duration`, v);
          hasPd = true;
        }
        if (hasPd) this.profiled++;
        else if (event.span_id) (unprofiled ??= []).push(event.span_id);
      }
      const child =
        typeof name === 'string' && event.type === 'span_end' && name.startsWith(PD_PREFIX)
          ? childPdOf(name)
          : null;
      if (child) {
        const v = finiteNumber(attrs[child.key] ?? attrs.duration_s);
        if (v !== null) this.push(child.metric, v);
      }
      if (name === 'sglang_pd_summary') {
        for (const [attr, metric] of PD_SUMMARY_METRICS) {
          const v = finiteNumber(attrs[attr]);
          if (v !== null) this.push(metric, v);
        }
      }
    }
    if (unprofiled !== null && pdParents !== null)
      for (const id of unprofiled) if (pdParents.has(scalarText(id) ?? '\0')) this.profiled++;
  }

  /** What was added so far, as plain data (another thread's samples, see `absorb`). */
  tally(): PerfSummaryTally {
    return { values: this.values, requests: this.requests, profiled: this.profiled };
  }

  /**
   * Adds another builder's tally of the samples that come after this one's: each metric's
   * values stay in sample order (np.mean's exact sum depends on it).
   */
  absorb(later: PerfSummaryTally): void {
    // each metric's list found once, not once per value (a helper's part: a million values)
    for (const [metric, list] of later.values) {
      const mine = this.values.get(metric);
      if (mine === undefined) this.values.set(metric, list.slice());
      else for (let i = 0; i < list.length; i++) mine.push(list[i]);
    }
    this.requests += later.requests;
    this.profiled += later.profiled;
  }

  result(): Record<string, number> {
    const values = this.values;
    const out: Record<string, number> = {};
    // slime's keys first, in slime's order (first seen), then ours
    for (const [metric, list] of values) {
      if (!metric.startsWith(FALLBACK)) Object.assign(out, stats(metric, list));
    }
    for (const [metric, list] of values) {
      if (!metric.startsWith(FALLBACK)) continue;
      const name = metric.replace(FALLBACK, 'perf/');
      if (!values.has(name)) Object.assign(out, stats(name, list));
    }
    if (this.requests > 0) {
      out['perf/request/count'] = this.requests;
      out['perf/request/profiled_count'] = this.profiled;
    }
    return out;
  }
}

/** mean, median (numpy's: mean of the middle two), max, min */
export function stats(metric: string, values: number[]): Record<string, number> {
  // the median by selection, not a sort: at 100k samples sorting every metric's values took
  // a tenth of a second at the end of each open (a comparator sort, a quarter of a second)
  const ranked = Float64Array.from(values);
  const n = ranked.length;
  let min = Infinity;
  let max = -Infinity;
  // a NaN or a -0 (which selection does not tell from 0) is ranked by the sort
  let bySort = false;
  for (let i = 0; i < n; i++) {
    const v = ranked[i];
    if (v < min) min = v;
    if (v > max) max = v;
    if (v !== v || (v === 0 && 1 / v < 0)) bySort = true;
  }
  let median: number;
  if (bySort) {
    const sorted = ranked.sort();
    median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    min = sorted[0];
    max = sorted[n - 1];
  } else if (n % 2 === 1) median = valueOfRank(ranked, (n - 1) / 2);
  else {
    const below = valueOfRank(ranked, n / 2 - 1);
    median = (below + smallestFrom(ranked, n / 2)) / 2;
  }
  return {
    [`${metric}/mean`]: numpySum(values) / n,
    [`${metric}/median`]: median,
    [`${metric}/max`]: max,
    [`${metric}/min`]: min,
  };
}

/**
 * numpy's float64 add.reduce (pairwise_sum in numpy/core/src/umath/loops_utils.h): plain loop
 * below 8 values, eight accumulators up to 128, halves (cut at a multiple of 8) above. Same
 * order of additions, so np.mean's exact result.
 */
export function numpySum(values: number[], from = 0, n = values.length): number {
  if (n < 8) {
    let sum = 0;
    for (let i = from; i < from + n; i++) sum += values[i];
    return sum;
  }
  if (n <= 128) {
    const r = values.slice(from, from + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += values[from + i + j];
    }
    let sum = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) sum += values[from + i];
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return numpySum(values, from, half) + numpySum(values, from + half, n - half);
}

type SeriesUnit = PerfView['series'][number]['unit'];

/** One series' values and rows as they are found, in typed arrays that grow by doubling. */
class SeriesColumns {
  values = new Float64Array(1024);
  rowIds = new Int32Array(1024);
  n = 0;
  readonly spanNames = new Set<string>();
  private lastSpanName: string | null = null;

  constructor(
    readonly key: string,
    readonly unit: SeriesUnit,
  ) {}

  add(value: unknown, rowId: number, spanName: string): void {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    if (this.n === this.values.length) {
      const values = new Float64Array(this.n * 2);
      values.set(this.values);
      this.values = values;
      const rowIds = new Int32Array(this.n * 2);
      rowIds.set(this.rowIds);
      this.rowIds = rowIds;
    }
    this.values[this.n] = value;
    this.rowIds[this.n++] = rowId;
    if (spanName !== this.lastSpanName) {
      this.spanNames.add(spanName);
      this.lastSpanName = spanName;
    }
  }
}

/** sglang_generate's end attrs that are series, with their units */
const GENERATE_SERIES: readonly [key: string, attr: string, unit: SeriesUnit][] = [
  ['e2e latency', 'e2e_latency', 's'],
  ['queue time', 'queue_time', 's'],
  ['decode throughput', 'decode_throughput', 'tok/s'],
];

/**
 * Per-request values for histograms, each with the row it came from, series in the order they
 * are first found. Each series' columns are found once (a PD phase's by role and phase, not
 * by a key text made per phase), values go straight into typed arrays, and an attr's place is
 * looked up once per attrs shape: 0.26 s at 100k samples before, a third of the perf digest.
 */
export function perfSeries(rows: PackedRow[]): PerfView['series'] {
  const series = new Map<string, SeriesColumns>();
  const columnsOf = (key: string, unit: SeriesUnit) => {
    let columns = series.get(key);
    if (columns === undefined) series.set(key, (columns = new SeriesColumns(key, unit)));
    return columns;
  };
  const generate = GENERATE_SERIES.map(
    ([key, , unit]) =>
      () =>
        columnsOf(key, unit),
  );
  const generateColumns: (SeriesColumns | null)[] = GENERATE_SERIES.map(() => null);
  // per PD role, per phase name: the series
  const pdColumns = new Map<string, Map<string, SeriesColumns>>();
  // the end attrs' keys the places below were found in (items of one shape share the list)
  let endKeys: readonly string[] | null = null;
  const places = GENERATE_SERIES.map(() => -1);
  const item = new PackedItemCursor();
  for (const row of rows) {
    item.reset(row.packed);
    while (item.next()) {
      if (item.state !== 'closed_span') continue;
      if (item.name === 'sglang_generate' && item.sectionCount > 1) {
        const keys = item.sectionKeys(1);
        if (keys !== endKeys) {
          endKeys = keys;
          for (let s = 0; s < GENERATE_SERIES.length; s++)
            places[s] = keys.indexOf(GENERATE_SERIES[s][1]);
        }
        for (let s = 0; s < GENERATE_SERIES.length; s++) {
          if (places[s] < 0) continue;
          const value = item.attrAt(1, places[s]);
          if (typeof value !== 'number' || !Number.isFinite(value)) continue;
          (generateColumns[s] ??= generate[s]()).add(value, row.row_id, item.name);
        }
      }
      const phases = item.pdPhaseCount;
      if (phases === 0) continue;
      const role = item.pdRole!;
      let byPhase = pdColumns.get(role);
      if (byPhase === undefined) pdColumns.set(role, (byPhase = new Map()));
      for (let k = 0; k < phases; k++) {
        const phase = item.pdPhaseName(k);
        const value = item.pdPhaseDuration(k);
        if (!Number.isFinite(value)) continue;
        let columns = byPhase.get(phase);
        if (columns === undefined)
          byPhase.set(phase, (columns = columnsOf(`${role} ${phase}`, 's')));
        columns.add(value, row.row_id, item.name);
      }
    }
  }
  return [...series.values()].map((s) => ({
    key: s.key,
    unit: s.unit,
    values: s.values.slice(0, s.n),
    rowIds: s.rowIds.slice(0, s.n),
    spanNames: [...s.spanNames],
  }));
}
