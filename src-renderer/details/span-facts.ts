import type { SpanDetails } from '../../src-main/core/api/trace-api';
import { pdPhaseColour } from '../../src-main/core/model/pd-phases';

export type SpanStateTone = 'closed' | 'ongoing' | 'orphan' | 'instant';

export interface SpanStateText {
  tone: SpanStateTone;
  label: string;
  /** why it looks as it does, e.g. where an ongoing span's drawn end comes from */
  detail: string | null;
}

const CLIP_REASONS: Record<string, string> = {
  row_end: 'drawn until the row’s last event',
  next_sibling_start: 'drawn until the next sibling starts',
  ancestor_end: 'drawn until its closest closed ancestor ends',
  self: 'no later event to draw it to: zero length',
};

/** The state of a span in words (TRACE_MODEL section 3: closed, ongoing, orphan, instant). */
export function describeSpanState(
  span: Pick<SpanDetails, 'state' | 'kind' | 'endAttrs'>,
): SpanStateText {
  if (span.state === 'open_span') {
    const reason = span.endAttrs.clipped_by;
    const detail =
      typeof reason === 'string' ? (CLIP_REASONS[reason] ?? `clipped by ${reason}`) : null;
    return { tone: 'ongoing', label: 'ongoing (never ended)', detail };
  }
  if (span.state === 'orphan_end' || span.kind === 'orphan')
    return {
      tone: 'orphan',
      label: 'unmatched end',
      detail: 'a span_end with no matching span_start',
    };
  if (span.state === 'point_event' || span.kind === 'event')
    return { tone: 'instant', label: 'instant event', detail: null };
  return { tone: 'closed', label: 'closed', detail: null };
}

export interface PdPhaseRow {
  phase: string;
  colour: string;
  durationSec: number;
  /** share of the phases' sum */
  ofPhases: number;
  /** share of the whole request span (phases may not cover it: the rest is other work) */
  ofRequest: number | null;
}

/** PD phases in their fixed order with the fixed colours, in shares of phases and request. */
export function pdPhaseRows(pd: NonNullable<SpanDetails['pd']>): {
  rows: PdPhaseRow[];
  totalSec: number;
} {
  let totalSec = 0;
  for (const p of pd.phases) totalSec += p.durationSec;
  const rows = pd.phases.map((p) => ({
    phase: p.phase,
    colour: pdPhaseColour(pd.role, p.phase),
    durationSec: p.durationSec,
    ofPhases: totalSec > 0 ? p.durationSec / totalSec : 0,
    ofRequest: pd.parentDurationSec > 0 ? p.durationSec / pd.parentDurationSec : null,
  }));
  return { rows, totalSec };
}
