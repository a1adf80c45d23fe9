import type { PdPhase, PdRole } from '../model/row';

/** Where one role's PD phases of a request lie in time (epoch seconds). */
export interface PdStretch {
  role: PdRole;
  start: number;
  end: number;
}

/**
 * (ours) A request whose PD phases came as flat durations (June 2026 keys, and the older
 * unprefixed ones) has no spans saying when each phase ran. Current slime writes them as child
 * spans laid out in sequence from the request's start: prefill phases, then decode phases. We
 * lay out flat durations the same way, so a request counts the same whichever way its dump
 * wrote it. Phases that add up to more than the request (clocks of two servers against the
 * client's) are shrunk to fit, in proportion, as its `[P]`/`[D]` lanes draw them: time outside
 * the request is not the request's.
 */
export function layOutFlatPdPhases(
  request: { start: number; end: number },
  phases: Readonly<Partial<Record<PdRole, readonly PdPhase[]>>>,
): PdStretch[] {
  const length = Math.max(0, request.end - request.start);
  const sums = (['prefill', 'decode'] as const).map((role) => ({
    role,
    seconds: (phases[role] ?? []).reduce((sum, p) => sum + Math.max(0, p.durationSec), 0),
  }));
  const total = sums[0].seconds + sums[1].seconds;
  const scale = total > length ? length / total : 1;
  const stretches: PdStretch[] = [];
  let at = request.start;
  for (const { role, seconds } of sums) {
    if (seconds <= 0) continue;
    const end = at + seconds * scale;
    stretches.push({ role, start: at, end });
    at = end;
  }
  return stretches;
}
