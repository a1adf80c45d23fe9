import type { Attrs, AttrValue, RowItem, SpanItem } from '../model/row';
import { NO_ATTRS } from './no-attrs';
import { PD_FLAT_KEYS } from './pd-keys';
import { round6 } from './python-values';

const PD_ROLES = ['prefill', 'decode'] as const;

/** slime's "> 0" on an attr value: numbers, and True as 1. */
function positive(value: AttrValue | undefined): boolean {
  if (value === true) return true;
  return typeof value === 'number' && value > 0;
}

/**
 * slime's viewer for flat PD keys: every closed span not named sglang_pd_* with a positive
 * prefill (decode) key gets a virtual "<name> [P]" ("[D]") span over the same interval, each
 * on a fresh lane below the deepest real lane. Pushed onto the row's items (no array of their
 * own copied onto it).
 */
export function slimeVirtualPdSpans(
  /** the row's items: first its span items, in the walk's span order */
  items: RowItem[],
  /** the walk's spans, item for item: their unrounded times (slime rounds the length, not the
   * difference of rounded times) */
  walkSpans: readonly { start: number; end: number | null }[],
  firstFreeLane: number,
): void {
  let lane = firstFreeLane;
  for (let i = 0; i < walkSpans.length; i++) {
    const span = items[i] as SpanItem;
    if (span.state !== 'closed_span' || span.name.startsWith('sglang_pd_') || span.end_ts === null)
      continue;
    const { start, end } = walkSpans[i];
    const rawDuration = end === null ? 0 : end - start;
    const endAttrs = span.attrs.end_attrs;
    // no end attrs (about half a row's spans): no key to look up twice per role
    if (endAttrs === NO_ATTRS) continue;
    for (const role of PD_ROLES) {
      // made at the first positive key: most spans have none (no array or closure per span)
      let attrs: Attrs | null = null;
      for (const { key } of PD_FLAT_KEYS[role])
        if (positive(endAttrs[key])) (attrs ??= {})[key] = endAttrs[key];
      if (attrs === null) continue;
      attrs.timeline_pd_virtual_role = role;
      attrs.timeline_pd_parent_name = span.name;
      attrs.timeline_pd_parent_duration = round6(Math.max(0, rawDuration));
      items.push({
        type: 'span',
        state: 'closed_span',
        name: `${span.name} ${role === 'prefill' ? '[P]' : '[D]'}`,
        start_ts: span.start_ts,
        end_ts: span.end_ts,
        display_end_ts: span.display_end_ts,
        attempt: span.attempt,
        span_id: `${span.span_id || span.name}:pd:${role}`,
        parent_span_id: span.span_id,
        parent_span_name: span.name,
        lane,
        depth: lane,
        attrs: { start_attrs: {}, end_attrs: attrs },
      });
      lane++;
    }
  }
}
