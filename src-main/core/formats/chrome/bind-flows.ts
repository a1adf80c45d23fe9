import type { ChromeSlice, ChromeThread, ChromeTrace } from './chrome-trace';
import { FLOW_PHASE, type FlowSteps as Steps } from './flow-steps';

type FlowSteps = Steps<ChromeThread, ChromeSlice>;

/**
 * Flow events become links between the slices they bind (TRACE_MODEL section 8: flows as
 * arrows): s and t bind to the slice enclosing them on their thread, f to the enclosing one
 * with `bp: "e"` and otherwise to the next slice that starts on its thread (the Trace Event
 * Format's binding points). Consecutive bound steps of one id are linked, the later slice
 * pointing back at the earlier (as OpenTelemetry links do). Flow v2 (`bind_id` with
 * `flow_out` / `flow_in` on slices) binds one to one, in time order: each flow_in takes the
 * oldest flow_out of its id not yet taken, so ids reused by thousands of slices make as many
 * links as there are pairs, never every out times every in. Needs nested slices (depth,
 * parent). Linear after sorting. Returns the links made and the flow events no slice took.
 */
export function bindFlows(trace: ChromeTrace): { links: number; unbound: number } {
  const v1 = bindSteps(trace.flowSteps);
  const v2 = bindV2(trace.boundFlows);
  return { links: v1.links + v2.links, unbound: v1.unbound + v2.unbound };
}

function bindSteps(steps: FlowSteps): { links: number; unbound: number } {
  bindStepsToSlices(steps);
  const { phase, tsUs, slice: boundTo } = steps;
  let links = 0;
  let unbound = 0;
  const group: number[] = [];
  /** file order breaks ties: a step's index is its order */
  const byStepOrder = (a: number, b: number) => tsUs[a] - tsUs[b] || phase[a] - phase[b] || a - b;
  const { starts, order } = byKey(steps);
  for (let key = 0; key + 1 < starts.length; key++) {
    group.length = 0;
    for (let k = starts[key]; k < starts[key + 1]; k++) group.push(order[k]);
    if (group.length === 2) {
      // most flows are a pair (a launch's s, its kernel's f), the f first in time as often as
      // not: swapped, not sorted (a sort's work array per pair was 40 MB of a 30 MB rank's
      // garbage)
      if (byStepOrder(group[0], group[1]) > 0) group.reverse();
    } else if (!inOrder(group, byStepOrder)) group.sort(byStepOrder);
    let previous: ChromeSlice | null = null;
    for (let g = 0; g < group.length; g++) {
      const step = group[g];
      const slice = boundTo[step];
      if (slice === null) {
        unbound++;
        if (phase[step] === FLOW_PHASE.f) previous = null;
        continue;
      }
      if (phase[step] !== FLOW_PHASE.s && previous !== null && previous !== slice) {
        (slice.flowsFrom ??= []).push(previous);
        links++;
      }
      previous = phase[step] === FLOW_PHASE.f ? null : slice;
    }
  }
  return { links, unbound };
}

function inOrder(list: readonly number[], compare: (a: number, b: number) => number): boolean {
  for (let k = 1; k < list.length; k++) if (compare(list[k - 1], list[k]) > 0) return false;
  return true;
}

/**
 * The steps grouped by key (keys are numbered from 0), each group in file order: a counting
 * sort of their indexes, key k's steps at order[starts[k]] up to order[starts[k + 1]].
 */
function byKey(steps: FlowSteps): { starts: Int32Array; order: Int32Array } {
  const { key, length } = steps;
  let keys = 0;
  for (let i = 0; i < length; i++) if (key[i] >= keys) keys = key[i] + 1;
  const starts = new Int32Array(keys + 1);
  for (let i = 0; i < length; i++) starts[key[i] + 1]++;
  for (let k = 0; k < keys; k++) starts[k + 1] += starts[k];
  const next = starts.slice(0, keys);
  const order = new Int32Array(length);
  for (let i = 0; i < length; i++) order[next[key[i]]++] = i;
  return { starts, order };
}

/** Sets the slice each step binds to, thread by thread. */
function bindStepsToSlices(steps: FlowSteps): void {
  const { tsUs, enclosing } = steps;
  steps.slice = new Array<ChromeSlice | null>(steps.length).fill(null);
  const byThread = new Map<ChromeThread, number[]>();
  for (let i = 0; i < steps.length; i++) {
    const thread = steps.thread[i];
    const list = byThread.get(thread);
    if (list) list.push(i);
    else byThread.set(thread, [i]);
  }
  for (const [thread, list] of byThread) {
    // nearly always in this order already (a copy and a sort of a rank's 75k CPU slices, not)
    const slices = inStartOrder(thread.slices)
      ? thread.slices
      : [...thread.slices].sort((a, b) => a.startUs - b.startUs || a.depth - b.depth);
    const enclosed = list.filter((i) => enclosing[i] === 1);
    // in time order already when the file writes its events so (a sort of 25k steps, not)
    if (!inOrder(enclosed, (a, b) => tsUs[a] - tsUs[b])) enclosed.sort((a, b) => tsUs[a] - tsUs[b]);
    bindEnclosing(slices, steps, enclosed);
    for (let k = 0; k < list.length; k++) {
      const i = list[k];
      if (enclosing[i] === 0) steps.slice[i] = nextStarting(slices, tsUs[i]);
    }
  }
}

/**
 * Each step (in time order) to the innermost slice open at its time, in one sweep: slices enter
 * in start order onto a stack that holds the newest slice's ancestors, and leave it once ended
 * before the step. Walking up from the newest slice for each step instead costs the nesting
 * depth per step (N nested slices with N flow steps: quadratic).
 */
function bindEnclosing(slices: ChromeSlice[], steps: FlowSteps, enclosed: number[]): void {
  const open: ChromeSlice[] = [];
  let next = 0;
  for (let k = 0; k < enclosed.length; k++) {
    const step = enclosed[k];
    const us = steps.tsUs[step];
    while (next < slices.length && slices[next].startUs <= us) {
      const slice = slices[next++];
      // its parent is on the stack (it cannot have ended before the slice started)
      while (open.length > 0 && open[open.length - 1] !== slice.parent) open.pop();
      open.push(slice);
    }
    while (open.length > 0 && !encloses(open[open.length - 1], us)) open.pop();
    steps.slice[step] = open.length > 0 ? open[open.length - 1] : null;
  }
}

/** Whether `slices` are by start, then depth (what bindStepsToSlices sorts them by). */
function inStartOrder(slices: readonly ChromeSlice[]): boolean {
  for (let k = 1; k < slices.length; k++) {
    const a = slices[k - 1];
    const b = slices[k];
    if (a.startUs > b.startUs || (a.startUs === b.startUs && a.depth > b.depth)) return false;
  }
  return true;
}

const encloses = (slice: ChromeSlice, us: number) =>
  slice.startUs <= us && (slice.endUs === null || us <= slice.endUs);

/**
 * Flow v2, one to one: per bind id in time order (a slice's flow_in before its own flow_out,
 * so a slice with both continues the flow), a flow_in links from the oldest waiting flow_out.
 */
function bindV2(boundFlows: ChromeTrace['boundFlows']): { links: number; unbound: number } {
  const byId = new Map<string, { slice: ChromeSlice; out: boolean; order: number }[]>();
  boundFlows.forEach(({ bindId, slice, out }, order) => {
    const list = byId.get(bindId);
    if (list) list.push({ slice, out, order });
    else byId.set(bindId, [{ slice, out, order }]);
  });
  let links = 0;
  let unbound = 0;
  for (const ends of byId.values()) {
    ends.sort(
      (a, b) =>
        a.slice.startUs - b.slice.startUs || Number(a.out) - Number(b.out) || a.order - b.order,
    );
    const waiting: ChromeSlice[] = [];
    let head = 0;
    for (const { slice, out } of ends) {
      if (out) {
        waiting.push(slice);
        continue;
      }
      if (head === waiting.length) {
        unbound++;
        continue;
      }
      const from = waiting[head++];
      if (from === slice) continue;
      (slice.flowsFrom ??= []).push(from);
      links++;
    }
    unbound += waiting.length - head;
  }
  return { links, unbound };
}

/**
 * The first slice that starts at or after `us` (the outermost, when several start then: slices
 * are in start order, outer first), by binary search.
 */
function nextStarting(slices: ChromeSlice[], us: number): ChromeSlice | null {
  let lo = 0;
  let hi = slices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (slices[mid].startUs < us) lo = mid + 1;
    else hi = mid;
  }
  return slices[lo] ?? null;
}
