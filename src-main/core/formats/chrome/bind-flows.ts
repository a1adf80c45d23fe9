import type { ChromeSlice, ChromeThread, ChromeTrace, FlowStep } from './chrome-trace';

const PHASE_RANK = { s: 0, t: 1, f: 2 } as const;

/**
 * Flow events become links between the slices they bind (TRACE_MODEL section 8: flows as
 * arrows): s and t bind to the slice enclosing them on their thread, f to the enclosing one
 * with `bp: "e"` and otherwise to the next slice that starts on its thread (the Trace Event
 * Format's binding points). Consecutive bound steps of one id are linked, the later slice
 * pointing back at the earlier (as OpenTelemetry links do). Flow v2 (`bind_id` with
 * `flow_out` / `flow_in` on slices) links each out to each in of the same id. Needs nested
 * slices (depth, parent). Returns the links made and the steps no slice took.
 */
export function bindFlows(trace: ChromeTrace): { links: number; unbound: number } {
  const sorted = new Map<ChromeThread, ChromeSlice[]>();
  const slicesOf = (thread: ChromeThread) => {
    let list = sorted.get(thread);
    if (!list) {
      list = [...thread.slices].sort((a, b) => a.startUs - b.startUs || a.depth - b.depth);
      sorted.set(thread, list);
    }
    return list;
  };
  const byKey = new Map<string, FlowStep[]>();
  for (const step of trace.flowSteps) {
    const list = byKey.get(step.key);
    if (list) list.push(step);
    else byKey.set(step.key, [step]);
  }
  let links = 0;
  let unbound = 0;
  for (const steps of byKey.values()) {
    steps.sort(
      (a, b) => a.tsUs - b.tsUs || PHASE_RANK[a.phase] - PHASE_RANK[b.phase] || a.order - b.order,
    );
    let previous: ChromeSlice | null = null;
    for (const step of steps) {
      const slices = slicesOf(step.thread);
      const slice = step.enclosing ? enclosing(slices, step.tsUs) : nextStarting(slices, step.tsUs);
      if (slice === null) {
        unbound++;
        if (step.phase === 'f') previous = null;
        continue;
      }
      if (step.phase !== 's' && previous !== null && previous !== slice) {
        (slice.flowsFrom ??= []).push(previous);
        links++;
      }
      previous = step.phase === 'f' ? null : slice;
    }
  }
  const v2 = new Map<string, { outs: ChromeSlice[]; ins: ChromeSlice[] }>();
  for (const { bindId, slice, out } of trace.boundFlows) {
    let ends = v2.get(bindId);
    if (!ends) v2.set(bindId, (ends = { outs: [], ins: [] }));
    (out ? ends.outs : ends.ins).push(slice);
  }
  for (const { outs, ins } of v2.values()) {
    for (const target of ins) {
      for (const from of outs) {
        if (from === target) continue;
        (target.flowsFrom ??= []).push(from);
        links++;
      }
    }
  }
  return { links, unbound };
}

/** The last index whose slice starts at or before `us` (slices in start order), or -1. */
function lastStartingBy(slices: ChromeSlice[], us: number): number {
  let lo = 0;
  let hi = slices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (slices[mid].startUs <= us) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The innermost slice open at `us`: the last one to start by then, or the nearest ancestor. */
function enclosing(slices: ChromeSlice[], us: number): ChromeSlice | null {
  const k = lastStartingBy(slices, us);
  for (let s: ChromeSlice | null = k < 0 ? null : slices[k]; s !== null; s = s.parent) {
    if (s.startUs <= us && (s.endUs === null || us <= s.endUs)) return s;
  }
  return null;
}

/** The first slice that starts at or after `us` (the outermost, when several start then). */
function nextStarting(slices: ChromeSlice[], us: number): ChromeSlice | null {
  let k = lastStartingBy(slices, us);
  if (k >= 0 && slices[k].startUs === us) {
    while (k > 0 && slices[k - 1].startUs === us) k--;
    return slices[k];
  }
  return slices[k + 1] ?? null;
}
