import { grownColumn } from '../../model/grown-column';

/** A step's phase: s, t, f (in the order steps at one timestamp are taken). */
export const FLOW_PHASE = { s: 0, t: 1, f: 2 } as const;
export type FlowPhase = (typeof FLOW_PHASE)[keyof typeof FLOW_PHASE];

/**
 * The s/t/f events (flow v1) of a trace as columns, step k the k-th met (its file order): its
 * flow's key (the flow's (cat, id), numbered from 0 in the order met), phase, time, thread,
 * whether it binds to the enclosing slice (s, t, and f with bp "e"; else the next slice that
 * starts), and once bound the slice it binds to. An object per step was a third of a GPU
 * rank's flow events' cost and lived, with the slices, until the rows were built. Generic in
 * the thread and slice (a ChromeThread, a ChromeSlice: chrome-trace.ts names it so).
 */
export class FlowSteps<Thread, Slice> {
  length = 0;
  key = new Int32Array(64);
  phase = new Uint8Array(64);
  tsUs = new Float64Array(64);
  enclosing = new Uint8Array(64);
  readonly thread: Thread[] = [];
  /** the slice each step binds to, once bound (bindFlows); null: none */
  slice: (Slice | null)[] = [];

  push(key: number, phase: FlowPhase, tsUs: number, thread: Thread, enclosing: boolean) {
    const k = this.length;
    if (k === this.key.length) this.grow();
    this.key[k] = key;
    this.phase[k] = phase;
    this.tsUs[k] = tsUs;
    this.enclosing[k] = enclosing ? 1 : 0;
    this.thread.push(thread);
    this.length = k + 1;
  }

  private grow(): void {
    this.key = grownColumn(this.key, 0, 2);
    this.phase = grownColumn(this.phase, 0, 2);
    this.tsUs = grownColumn(this.tsUs, 0, 2);
    this.enclosing = grownColumn(this.enclosing, 0, 2);
  }
}
