import { jsonText } from './json-text';

/**
 * A row and its items, in exactly the shape of slime's timeline cache
 * (`tools/trace_timeline_viewer.py`, cache_version 1). slime's cache is the format our users
 * already script against, and `trace-explorer rows` must print it unchanged, so the row model
 * keeps slime's snake_case keys instead of being mapped back and forth.
 *
 * Fields marked (ours) are never printed in slime-cache output (see rows/slime-cache.ts);
 * they carry what the explorer shows beyond slime (PD phases, OTLP specifics).
 */

/** JSON-like attribute value as read from a dump or an OTLP file; an int beyond 2^53 is a bigint, exact (jsonText writes it). */
export type AttrValue =
  null | boolean | number | bigint | string | AttrValue[] | { [key: string]: AttrValue };

export type Attrs = { [key: string]: AttrValue };

/** A row's source as the label shows it: text as it is, an int as its digits, none as null. */
export function sourceText(source: AttrValue): string | null {
  if (source === null) return null;
  return typeof source === 'string' ? source : jsonText(source);
}

export type ClipReason = 'row_end' | 'next_sibling_start' | 'ancestor_end' | 'self';

export type PdRole = 'prefill' | 'decode';

/** One PD phase of a request, in the fixed order of TRACE_MODEL section 4. (ours) */
export interface PdPhase {
  /** e.g. "bootstrap_queue", "forward", "transfer" */
  phase: string;
  durationSec: number;
}

/** (ours) what the explorer knows beyond slime about an item. */
export interface ItemExtras {
  /** PD role of a `[P]`/`[D]` lane span, with its phases in fixed order. */
  pd?: { role: PdRole; phases: PdPhase[]; parentDurationSec: number };
  /** OTLP: lane label (SGLang thread, ROLL service instance). */
  lane_label?: string;
  /** OTLP: span status is ERROR, or the span has an exception event. */
  error?: boolean;
  /** OTLP: the parent named by the span is not in the file. */
  missing_parent?: boolean;
  /** OTLP: links to other spans: trace id, span id, whether the target is in the file. */
  links?: { trace_id: string; span_id: string; dangling: boolean; attrs?: Attrs }[];
  /**
   * Chrome (GPU profiles): the class a span is drawn and listed by instead of its name (a
   * kernel's kind: computation, communication, memory), so thousands of kernel names read as
   * three colours.
   */
  category?: string;
  /** OTLP: service.name of the span's resource. */
  service?: string;
  /** OTLP: resource / scope / kind / status, shown in details. */
  otel?: {
    kind?: string;
    status_code?: string;
    status_message?: string;
    resource?: Attrs;
    scope?: string;
  };
}

export interface SpanItem extends ItemExtras {
  type: 'span';
  state: 'closed_span' | 'open_span';
  name: string;
  start_ts: number;
  end_ts: number | null;
  display_end_ts: number;
  attempt: number | null;
  span_id: string | null;
  parent_span_id: string | null;
  parent_span_name: string | null;
  lane: number;
  depth: number;
  /** end_attrs.clipped_by holds the ClipReason of an open span */
  attrs: { start_attrs: Attrs; end_attrs: Attrs };
}

export interface PointItem extends ItemExtras {
  type: 'event' | 'orphan_end';
  state: 'point_event' | 'orphan_end';
  name: string;
  ts: number;
  attempt: number | null;
  span_id: string | null;
  parent_span_id: string | null;
  parent_span_name: string | null;
  lane: number;
  depth: number;
  attrs: Attrs;
}

export type RowItem = SpanItem | PointItem;

/**
 * A row's items as numbers and references (core/rows/packed-items.ts): what a file keeps of
 * them, instead of an object per item.
 */
export interface PackedItems {
  readonly count: number;
  /** the numbers of the rows packed together (shared chunks), this row's from `first` on */
  readonly numbers: Float64Array;
  readonly first: number;
  /**
   * the refs of the rows packed together (shared chunks), this row's from `refsFirst` on; a
   * long row's own array of them (rows/packed-items.ts)
   */
  readonly refs: Int32Array | readonly unknown[];
  readonly refsFirst: number;
  /** what the rows packed together share (rows/packed-items.ts reads it) */
  readonly table: unknown;
}

/** What a row says of its sample (or trace, or process); the rest is counted over its items. */
export type RowOwnField =
  | 'row_id'
  | 'sample_index'
  | 'group_index'
  | 'source'
  | 'status'
  | 'label'
  | 'reward'
  | 'trace_id'
  | 'attempt';

export interface Row {
  row_id: number;
  sample_index: AttrValue;
  group_index: AttrValue;
  /** as slime keeps it: text, or an int or other JSON value a dump gave (sourceText shows it) */
  source: AttrValue;
  status: string | null;
  label: AttrValue;
  reward: AttrValue;
  trace_id: string | null;
  attempt: AttrValue;
  start: number;
  end: number;
  duration: number;
  lane_count: number;
  item_count: number;
  closed_span_count: number;
  open_span_count: number;
  point_event_count: number;
  orphan_count: number;
  total_response_length: number;
  max_response_length: number;
  items: RowItem[];
}

/** A row as an open file keeps it: its items packed (unpackItems gives them back). */
export type PackedRow = RowFields & { readonly packed: PackedItems };

/** A row's own fields and counts, without its items. */
export type RowFields = Omit<Row, 'items'>;

/** slime's cache file (cache_version 1). */
export interface SlimeCache {
  cache_version: 1;
  pt_path: string;
  generated_at: number;
  sample_count: number;
  global_start: number | null;
  global_end: number | null;
  rows: Row[];
}
