import type { PdPhase, PdRole, Row, RowItem, SpanItem } from '../model/row';
import { PD_FLAT_KEYS, PD_OLDER_PREFILL_KEYS } from './pd-keys';
import { sortItems } from './build-rows';

/** The fixed phase order and colours live in the model, where the renderer can import them. */
export { PD_PHASES, pdPhaseColour } from '../model/pd-phases';

const PHASE_OF_CHILD = /^sglang_pd_(prefill|decode)_(.+)$/;

/**
 * (ours) Every PD request as `[P]` / `[D]` lanes with phases in a fixed order, whatever the
 * dump's generation: slime's virtual spans (flat June keys, plus the older unprefixed keys as
 * prefill phases), and current dumps' sglang_pd_prefill / sglang_pd_decode child spans, whose
 * phase children become the segments. PD spans are packed into as few lanes as overlap allows
 * below the real lanes. slime's cache output does not use this (slime-cache.ts).
 */
export function buildPdView(row: Row, options: { giveUpRow?: boolean } = {}): Row {
  // A caller that gives the row up (opening a file) lets its items be changed in place: a
  // copy of a million items is half a gigabyte that is garbage a moment later.
  const items = options.giveUpRow ? row.items : row.items.map((item) => ({ ...item }));
  // (100k rows are built while a file is read: each loop below skips a span by its name's
  // prefix before any regex, map or string is made for it)
  const byId = new SpanFinder(items);
  // indexes of PD phase children by their parent's id: made at the first one (most rows hold
  // none); indexes, so that dropping them is a mark per index, not a set of objects
  let childrenOf: Map<string, number[]> | null = null;
  /** span ids of the form `<id>:pd:prefill`: slime's virtual prefill spans already there */
  let virtualPrefillIds: Set<string> | null = null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // every item's id, not only spans' (an unmatched end keeps its span's id)
    const id: unknown = item.span_id;
    if (typeof id === 'string' && id.endsWith(VIRTUAL_PREFILL))
      (virtualPrefillIds ??= new Set()).add(id);
    if (item.type !== 'span') continue;
    if (!item.parent_span_id || !item.name.startsWith(PD_PREFIX)) continue;
    if (!PHASE_OF_CHILD.test(item.name)) continue;
    const list = (childrenOf ??= new Map()).get(item.parent_span_id);
    if (list) list.push(i);
    else childrenOf.set(item.parent_span_id, [i]);
  }

  // the phase children dropped, by index
  let drop: Uint8Array | null = null;
  const added: SpanItem[] = [];
  for (const item of items) {
    if (item.type !== 'span') continue;
    const role = roleOfChild(item.name);
    if (role) {
      const children =
        item.span_id && childrenOf !== null
          ? (childrenOf.get(item.span_id) ?? NO_CHILDREN)
          : NO_CHILDREN;
      const phases: PdPhase[] = [];
      for (const { phase, key, childName } of children.length > 0 ? PD_CHILD_PHASES[role] : []) {
        const at = children.find((c) => items[c].name === childName);
        if (at === undefined) continue;
        const child = items[at] as SpanItem;
        const attr = child.attrs.end_attrs[key];
        const durationSec = typeof attr === 'number' ? attr : child.display_end_ts - child.start_ts;
        if (durationSec > 0) phases.push({ phase, durationSec });
      }
      for (const at of children) (drop ??= new Uint8Array(items.length))[at] = 1;
      const parent = item.parent_span_id ? byId.find(item.parent_span_id) : undefined;
      item.pd = {
        role,
        phases,
        parentDurationSec: parent
          ? parent.display_end_ts - parent.start_ts
          : item.display_end_ts - item.start_ts,
      };
      continue;
    }
    const virtualRole = item.attrs.end_attrs.timeline_pd_virtual_role;
    if (virtualRole === 'prefill' || virtualRole === 'decode') {
      const parent = item.parent_span_id ? byId.find(item.parent_span_id) : undefined;
      item.pd = {
        role: virtualRole,
        phases: flatPhases(virtualRole, parent?.attrs.end_attrs ?? item.attrs.end_attrs),
        parentDurationSec: Number(item.attrs.end_attrs.timeline_pd_parent_duration ?? 0),
      };
      continue;
    }
    // Older dumps: unprefixed keys alone give slime no [P] lane; they give us one (in this
    // pass: a span's own pd is settled above, and a pass of its own read every item again).
    if (item.state !== 'closed_span' || item.name.startsWith(PD_PREFIX) || item.pd) continue;
    // the older keys first: most spans have none, and their phases are then never looked up
    const endAttrs = item.attrs.end_attrs;
    if (!hasOlderPrefillKey(endAttrs)) continue;
    if (virtualPrefillIds?.has(`${item.span_id}${VIRTUAL_PREFILL}`)) continue;
    const phases = flatPhases('prefill', endAttrs);
    added.push({
      ...item,
      name: `${item.name} [P]`,
      span_id: `${item.span_id}${VIRTUAL_PREFILL}`,
      parent_span_id: item.span_id,
      parent_span_name: item.name,
      attrs: { start_attrs: {}, end_attrs: { timeline_pd_virtual_role: 'prefill' } },
      pd: { role: 'prefill', phases, parentDurationSec: item.display_end_ts - item.start_ts },
    });
  }
  // the view's own array: the dropped children closed up in place, the added spans after
  if (drop !== null) {
    let kept = 0;
    for (let i = 0; i < items.length; i++) if (drop[i] === 0) items[kept++] = items[i];
    items.length = kept;
  }
  for (const span of added) items.push(span);
  const packed = packLanes(items);
  if (!options.giveUpRow) return { ...row, ...packed };
  // in place (same keys, same order): a spread of the packed fields made a slow object per row
  row.items = packed.items;
  row.lane_count = packed.lane_count;
  row.item_count = packed.item_count;
  return row;
}

const PD_PREFIX = 'sglang_pd_';

/** per role, its phases with their flat key and the name of the child span that times them */
const PD_CHILD_PHASES: Record<PdRole, { phase: string; key: string; childName: string }[]> = {
  prefill: PD_FLAT_KEYS.prefill.map((p) => ({ ...p, childName: `${PD_PREFIX}prefill_${p.phase}` })),
  decode: PD_FLAT_KEYS.decode.map((p) => ({ ...p, childName: `${PD_PREFIX}decode_${p.phase}` })),
};

/** whether the end attrs hold an older unprefixed prefill key (a loop: no closure per span) */
function hasOlderPrefillKey(endAttrs: Record<string, unknown>): boolean {
  for (let k = 0; k < PD_OLDER_PREFILL_KEYS.length; k++)
    if (positive(endAttrs[PD_OLDER_PREFILL_KEYS[k].key])) return true;
  return false;
}
const VIRTUAL_PREFILL = ':pd:prefill';
const NO_CHILDREN: number[] = [];

/** rows of up to this many items find a span by its id by looking through them, not a map */
const SCAN_ITEMS = 64;

/**
 * The last span item with a given id (a later one wins, as a map filled in item order would
 * have it). A row's few items are looked through from the end: a map of a row's ids, made
 * for the two or so PD parents a row looks up, was a tenth of the view's time.
 */
class SpanFinder {
  private map: Map<string, SpanItem> | null = null;
  constructor(private readonly items: readonly RowItem[]) {}

  find(id: string): SpanItem | undefined {
    const { items } = this;
    if (items.length <= SCAN_ITEMS) {
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i];
        if (item.type === 'span' && item.span_id === id) return item;
      }
      return undefined;
    }
    if (this.map === null) {
      this.map = new Map();
      for (const item of items)
        if (item.type === 'span' && item.span_id) this.map.set(item.span_id, item);
    }
    return this.map.get(id);
  }
}

/**
 * `prefill` or `decode` for a span named exactly sglang_pd_prefill / sglang_pd_decode, else
 * null: two comparisons, not a regex match array made per PD span
 */
function roleOfChild(name: string): PdRole | null {
  if (name === ROLE_PREFILL) return 'prefill';
  return name === ROLE_DECODE ? 'decode' : null;
}
const ROLE_PREFILL = `${PD_PREFIX}prefill`;
const ROLE_DECODE = `${PD_PREFIX}decode`;

function positive(value: unknown): boolean {
  return value === true || (typeof value === 'number' && value > 0);
}

function flatPhases(role: PdRole, attrs: Record<string, unknown>): PdPhase[] {
  const phases: PdPhase[] = [];
  for (const { key, phase } of PD_FLAT_KEYS[role]) {
    let value = attrs[key];
    if (role === 'prefill' && !positive(value)) {
      value = attrs[PD_OLDER_PREFILL_KEYS.find((k) => k.phase === phase)?.key ?? ''];
    }
    if (positive(value))
      phases.push({ phase, durationSec: value === true ? 1 : (value as number) });
  }
  return phases;
}

/**
 * Real items keep their depth order, with lanes left empty by dropped phase children closed up;
 * PD spans go below, [P] then [D], each packed greedily into the first lane free at its start.
 * Sorts `items` in place: it is this view's own array (the given-up row's, or a copy).
 */
function packLanes(items: RowItem[]): { items: RowItem[]; lane_count: number; item_count: number } {
  const isPd = (i: RowItem) => i.type === 'span' && !!i.pd;
  const laneIndex = closedUpLanes(items, isPd);
  for (const item of items) if (!isPd(item)) item.lane = laneIndex.get(item.lane)!;
  let nextLane = laneIndex.size;
  for (const role of ['prefill', 'decode'] as const) {
    const spans: SpanItem[] = [];
    for (const i of items) if (i.type === 'span' && i.pd?.role === role) spans.push(i);
    if (spans.length === 0) continue;
    spans.sort((a, b) => (a.start_ts < b.start_ts ? -1 : a.start_ts > b.start_ts ? 1 : 0));
    const laneEnds: number[] = [];
    for (const span of spans) {
      let lane = laneEnds.findIndex((end) => end <= span.start_ts);
      if (lane < 0) lane = laneEnds.push(0) - 1;
      laneEnds[lane] = span.display_end_ts;
      span.lane = nextLane + lane;
    }
    nextLane += laneEnds.length;
  }
  const sorted = sortItems(items);
  return { items: sorted, lane_count: Math.max(1, nextLane), item_count: sorted.length };
}

/**
 * The lanes real (non-PD) items use, each to its rank among them. Lanes already 0..k (most
 * rows: depths) map to themselves, found without a set or a sort per row.
 */
function closedUpLanes(items: RowItem[], isPd: (i: RowItem) => boolean): Map<number, number> {
  const seen = new Uint8Array(items.length + 1);
  let contiguous = true;
  for (const item of items) {
    if (isPd(item)) continue;
    const lane = item.lane;
    if (Number.isInteger(lane) && lane >= 0 && lane < seen.length) seen[lane] = 1;
    else contiguous = false;
  }
  let used = 0;
  while (used < seen.length && seen[used] === 1) used++;
  for (let l = used; contiguous && l < seen.length; l++) if (seen[l] === 1) contiguous = false;
  if (contiguous) return identityLanes(used);
  const usedLanes = [...new Set(items.filter((i) => !isPd(i)).map((i) => i.lane))].sort(
    (a, b) => a - b,
  );
  return new Map(usedLanes.map((lane, index) => [lane, index]));
}

/** lane -> lane for lanes 0..n-1, shared per n (never changed by its users) */
const identityLaneMaps: Map<number, number>[] = [];
function identityLanes(n: number): Map<number, number> {
  let map = identityLaneMaps[n];
  if (map === undefined) {
    map = new Map(Array.from({ length: n }, (_, i) => [i, i]));
    if (n < 64) identityLaneMaps[n] = map;
  }
  return map;
}
