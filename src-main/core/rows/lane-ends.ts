/**
 * When each lane of a row is busy until, for placing bars greedily in start order: the lowest
 * lane at or above some floor that is free at a time (its last bar ended by then). A segment
 * tree over the lanes' end times (minimum and maximum per node) answers in O(log lanes), where
 * scanning lane by lane costs a lane per bar still running: N bars that all overlap took N^2/2
 * steps. Lanes never set are free (ended at -Infinity). Grows as lanes are added.
 */
export class LaneEnds {
  /** leaves: a power of two */
  private capacity = 1;
  private min = new Float64Array(2).fill(-Infinity);
  private max = new Float64Array(2).fill(-Infinity);
  /** how many lanes have been set: the highest set lane + 1 */
  count = 0;

  /** Lane `lane` is busy until `end`. */
  set(lane: number, end: number): void {
    while (lane >= this.capacity) this.grow();
    let node = this.capacity + lane;
    this.min[node] = end;
    this.max[node] = end;
    for (node >>= 1; node >= 1; node >>= 1) {
      this.min[node] = Math.min(this.min[2 * node], this.min[2 * node + 1]);
      this.max[node] = Math.max(this.max[2 * node], this.max[2 * node + 1]);
    }
    if (lane >= this.count) this.count = lane + 1;
  }

  /** The lowest lane >= `from` whose last bar ended at or before `at`. */
  firstFree(from: number, at: number): number {
    if (from >= this.capacity) return from;
    const found = this.first(1, 0, this.capacity, from, (node) => this.min[node] <= at);
    return found < 0 ? this.capacity : found;
  }

  /** The lowest lane >= `from` still busy after `at`, or Infinity. */
  firstBusy(from: number, at: number): number {
    if (from >= this.capacity) return Infinity;
    const found = this.first(1, 0, this.capacity, from, (node) => this.max[node] > at);
    return found < 0 ? Infinity : found;
  }

  /**
   * The lowest leaf >= `from` under `node` (covering [lo, hi)) whose node test passes, or -1.
   * The test holds for a node whenever it holds for a leaf below, so a failing node is skipped
   * whole: O(log capacity) nodes visited. Recursion is as deep as the tree (32 at most).
   */
  private first(
    node: number,
    lo: number,
    hi: number,
    from: number,
    test: (node: number) => boolean,
  ): number {
    if (hi <= from || !test(node)) return -1;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >> 1;
    const left = this.first(2 * node, lo, mid, from, test);
    return left >= 0 ? left : this.first(2 * node + 1, mid, hi, from, test);
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const min = new Float64Array(2 * capacity).fill(-Infinity);
    const max = new Float64Array(2 * capacity).fill(-Infinity);
    min.set(this.min.subarray(this.capacity, 2 * this.capacity), capacity);
    max.set(this.max.subarray(this.capacity, 2 * this.capacity), capacity);
    for (let node = capacity - 1; node >= 1; node--) {
      min[node] = Math.min(min[2 * node], min[2 * node + 1]);
      max[node] = Math.max(max[2 * node], max[2 * node + 1]);
    }
    this.capacity = capacity;
    this.min = min;
    this.max = max;
  }
}
