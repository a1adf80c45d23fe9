import type { ItemView, RowView } from '../../src-main/core/api/trace-api';

/** The parts a sample's own time splits into (the glossary's words). */
export const TIMING_PARTS = [
  'queue',
  'prefill',
  'decode',
  'generate, not split',
  'tool calls',
  'reward',
  'other',
] as const;
export type TimingPart = (typeof TIMING_PARTS)[number];

export interface SampleTiming {
  durationSec: number;
  /** generate requests (turns of a multi-turn sample) */
  turns: number;
  /** attempts: the row's attempt + 1 */
  attempts: number;
  /** seconds per part, summing to durationSec */
  seconds: Record<TimingPart, number>;
}

/** Rows with more spans than this are not split (the sweep is per span per moment). */
export const MAX_SPLIT_SPANS = 4000;

/**
 * A sample's own time, moment by moment, as what its deepest span was doing: queueing (a span
 * named for a queue), prefill, decode, a generate request the dump does not split, tool calls,
 * reward; moments under no such span are 'other'. The parts sum to the row's duration.
 */
export function buildSampleTiming(row: RowView): SampleTiming | null {
  // a row sent for a window (a GPU rank's) has not all its spans: no split of parts of it
  if (row.detail) return null;
  const spans = row.items.filter(
    (i) => i.kind === 'span' && i.endSec > i.startSec && !isLaneCopy(i),
  );
  if (spans.length > MAX_SPLIT_SPANS) return null;
  const seconds = Object.fromEntries(TIMING_PARTS.map((p) => [p, 0])) as Record<TimingPart, number>;
  const from = row.startSec;
  const to = row.endSec;
  const cuts = new Set<number>([from, to]);
  for (const s of spans) {
    if (s.startSec > from && s.startSec < to) cuts.add(s.startSec);
    if (s.endSec > from && s.endSec < to) cuts.add(s.endSec);
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  for (let k = 0; k + 1 < sorted.length; k++) {
    const mid = (sorted[k] + sorted[k + 1]) / 2;
    let best: ItemView | null = null;
    let bestPart: TimingPart = 'other';
    for (const s of spans) {
      if (s.startSec > mid || s.endSec < mid) continue;
      const part = partOf(s.name);
      if (part === null) continue;
      if (!best || s.depth >= best.depth) [best, bestPart] = [s, part];
    }
    seconds[bestPart] += sorted[k + 1] - sorted[k];
  }
  const turns = row.items.filter((i) => i.kind === 'span' && isRequest(i.name)).length;
  const attempt = typeof row.attempt === 'number' ? row.attempt : 0;
  return { durationSec: to - from, turns, attempts: attempt + 1, seconds };
}

function isRequest(name: string): boolean {
  return name.startsWith('sglang_generate') && !name.endsWith(']');
}

/** slime's legacy `[P]`/`[D]` lanes repeat their request's interval: not time of their own */
function isLaneCopy(item: ItemView): boolean {
  return item.pd !== undefined && /\[[PD]\]$/.test(item.name);
}

function partOf(name: string): TimingPart | null {
  if (/queue/.test(name)) return 'queue';
  if (name.startsWith('sglang_pd_prefill')) return 'prefill';
  if (name.startsWith('sglang_pd_decode')) return 'decode';
  if (isRequest(name)) return 'generate, not split';
  if (/tool/.test(name)) return 'tool calls';
  if (/reward/.test(name)) return 'reward';
  return null;
}
