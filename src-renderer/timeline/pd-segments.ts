import type { ItemView } from '../../src-main/core/api/trace-api';

/** One PD phase of a span, where it is drawn: seconds on the span's own clock. */
export interface PhaseSegment {
  phase: string;
  durationSec: number;
  startSec: number;
  endSec: number;
}

/**
 * Where each PD phase of a span is drawn: in order from the span's start, each as long as its
 * duration / max(sum of phases, span length) of the span. The drawing and the hover read the
 * same segments, so the phase a tooltip names is the one under the pointer.
 */
export function phaseSegments(item: ItemView): PhaseSegment[] {
  const phases = item.pd?.phases ?? [];
  const total = phases.reduce((sum, p) => sum + p.durationSec, 0);
  const spanSec = item.endSec - item.startSec;
  const denominator = Math.max(total, spanSec);
  const segments: PhaseSegment[] = [];
  let at = item.startSec;
  for (const p of phases) {
    const length = denominator > 0 ? (p.durationSec / denominator) * spanSec : 0;
    segments.push({
      phase: p.phase,
      durationSec: p.durationSec,
      startSec: at,
      endSec: at + length,
    });
    at += length;
  }
  return segments;
}

/**
 * The phase segment at `sec`, or null outside them. `slackSec` widens each segment to the width
 * a segment is drawn at least (half a pixel): a phase too short to see can still be pointed at.
 */
export function phaseAt(item: ItemView, sec: number, slackSec = 0): PhaseSegment | null {
  let nearest: PhaseSegment | null = null;
  for (const s of phaseSegments(item)) {
    if (sec >= s.startSec && sec < s.endSec) return s;
    if (sec >= s.startSec - slackSec && sec <= s.endSec + slackSec) nearest ??= s;
  }
  return nearest;
}
