/** a memo slot whose container was let go (PickleMemo.forgetFinished) */
export const FORGOTTEN: unique symbol = Symbol('forgotten');
export type MemoSlot<T> = T | typeof FORGOTTEN | undefined;
/** a live slot holding a string the reader walked past (skipListItem): decoded if read back */
const UNREAD: unique symbol = Symbol('unread');

/** Slots per segment: the memo is settled a segment at a time. */
const SEGMENT_BITS = 14;
const SEGMENT = 1 << SEGMENT_BITS;
const SLOT_MASK = SEGMENT - 1;
/**
 * A settled slot's code: never written, let go, a value kept in the segment's map, or (from
 * STRING_AT on) a string to read again from the pickle, at its opcode's offset + STRING_AT.
 */
const EMPTY = 0;
const LET_GO = 1;
const KEPT = 2;
const STRING_AT = 3;
/** Strings of settled slots read back recently, by slot (direct-mapped: keys are few and hot). */
const HOT_BITS = 12;
const HOT_MASK = (1 << HOT_BITS) - 1;

/**
 * Live segments at most that are dense (arrays of SEGMENT slots, reused): a pickle writes its
 * slots in order and a reader settles them as it goes, so one or two are live at a time.
 */
const DENSE_LIVE = 8;

interface Segment<T> {
  /**
   * the slots while the segment is live: an array of SEGMENT slots when the pickle writes in
   * order, else a plain one (V8 keeps a sparse one small)
   */
  values: (MemoSlot<T> | typeof UNREAD)[] | null;
  /** per live slot holding a string read from an opcode: that opcode's offset + STRING_AT */
  stringAt: number[] | Float64Array | null;
  /** values and stringAt are a dense pair, reused once the segment is settled */
  dense: boolean;
  /** how many slots of the segment were written */
  written: number;
  /** one past the highest slot of the segment written while live */
  end: number;
  /** per slot of a settled segment, its code (EMPTY ... STRING_AT + offset) */
  codes: Uint32Array | Float64Array | null;
  /** the values of a settled segment's KEPT slots, by memo index */
  kept: Map<number, T> | null;
}

/**
 * A pickle's memo, which every value of a CPython pickle goes through (5.5M slots for a 100k
 * sample dump). Live, it is an array of values; once a reader lets finished containers go
 * (forgetFinished), whole segments behind the reading point are settled: a string becomes the
 * offset of the opcode it was read from, and is decoded again (once: then kept) if the pickle
 * reads it back (interned dict keys: a few, read back again and again, found in a small
 * cache). A settled
 * slot takes 4 bytes outside the collector's heap instead of 8 in it, plus the string it kept
 * alive, and the collector no longer walks millions of slots.
 */
export class PickleMemo<T> {
  private readonly segments: (Segment<T> | undefined)[] = [];
  /** distinct slots written: what MEMOIZE numbers the next slot by */
  size = 0;
  /** one past the highest slot written */
  length = 0;
  /**
   * the dense arrays of settled segments, for the next ones. Grown from empty slot by slot and
   * let go a segment at a time, they cost the reading thread more than any other memo step
   * (0.37 s on the file's thread and 0.79 s on the helper at 100k samples; 0.1 s each reused)
   */
  private readonly pool: { values: unknown[]; stringAt: Float64Array }[] = [];
  private denseLive = 0;
  private readonly hotIndex = new Int32Array(HOT_MASK + 1).fill(-1);
  private readonly hotValue: string[] = new Array<string>(HOT_MASK + 1).fill('');

  /**
   * `readString` decodes the string opcode at an offset again; `sourceSize` bounds the offsets
   * (past 4 GiB a settled slot takes 8 bytes).
   */
  constructor(
    private readonly readString: (at: number) => string,
    private readonly sourceSize: number,
  ) {}

  /** `at`: where the opcode that read `value` (a string) starts, or -1 (anything else). */
  put(index: number, value: T, at: number): void {
    this.write(index, value, at);
  }

  /**
   * Slot `index` was written by a value the reader walked past without reading it (an item
   * skipped, PickleOptions.skipListItem): a string opcode at `stringAt`, decoded only if the
   * pickle reads it back (a later item reading an interned key first written there), or, with
   * -1, anything else, let go (reading it back fails as a forgotten container does).
   */
  putUnread(index: number, stringAt: number): void {
    this.write(index, stringAt < 0 ? FORGOTTEN : UNREAD, stringAt);
  }

  private write(index: number, value: T | typeof UNREAD | typeof FORGOTTEN, at: number): void {
    const s = index >>> SEGMENT_BITS;
    let segment = this.segments[s];
    if (segment === undefined) {
      segment = this.newSegment(s, index === this.length);
      this.segments[s] = segment;
    }
    const k = index & SLOT_MASK;
    if (segment.values !== null) {
      if (segment.values[k] === undefined) {
        this.size++;
        segment.written++;
        if (k >= segment.end) segment.end = k + 1;
      }
      segment.values[k] = value;
      segment.stringAt![k] = at < 0 ? 0 : at + STRING_AT;
    } else {
      const codes = segment.codes!;
      if (codes[k] === EMPTY) this.size++;
      if (codes[k] === KEPT) segment.kept!.delete(index);
      if (value === FORGOTTEN) codes[k] = LET_GO;
      else if (at >= 0 && (typeof value === 'string' || value === UNREAD))
        codes[k] = at + STRING_AT;
      else {
        codes[k] = KEPT;
        (segment.kept ??= new Map()).set(index, value as T);
      }
    }
    if (index >= this.length) this.length = index + 1;
    // a slot written again never reads back the string it had
    if (this.hotIndex[index & HOT_MASK] === index) this.hotIndex[index & HOT_MASK] = -1;
  }

  /**
   * Segment `s`, written for the first time: dense when the pickle writes in order (the segment
   * before it at least half written), so memory stays bounded by the slots written whatever a
   * pickle does (a hostile one writing slots far apart gets sparse segments).
   */
  private newSegment(s: number, atEnd: boolean): Segment<T> {
    const before = s === 0 ? undefined : this.segments[s - 1];
    // (or the first write at the memo's end: a reader that passed items without writing theirs)
    const inOrder = s === 0 || atEnd || (before !== undefined && before.written >= SEGMENT / 2);
    const dense = inOrder && this.denseLive < DENSE_LIVE;
    const reused = dense ? this.pool.pop() : undefined;
    if (dense) this.denseLive++;
    return {
      values: !dense
        ? []
        : ((reused?.values ?? new Array(SEGMENT).fill(undefined)) as Segment<T>['values']),
      stringAt: !dense ? [] : (reused?.stringAt ?? new Float64Array(SEGMENT)),
      dense,
      written: 0,
      end: 0,
      codes: null,
      kept: null,
    };
  }

  get(index: number): MemoSlot<T> {
    // a string read back recently first: the interned keys every dict reads, whose settled
    // segment's codes were a cache miss before the hot entry was looked at (a write to a
    // slot drops its entry, so one found is the slot's value)
    const h = index & HOT_MASK;
    if (this.hotIndex[h] === index) return this.hotValue[h] as T;
    const segment = this.segments[index >>> SEGMENT_BITS];
    if (segment === undefined) return undefined;
    const k = index & SLOT_MASK;
    if (segment.values !== null) {
      const slot = segment.values[k];
      if (slot !== UNREAD) return slot;
      const value = this.readString(segment.stringAt![k] - STRING_AT) as T;
      segment.values[k] = value;
      return value;
    }
    const code = segment.codes![k];
    if (code >= STRING_AT || code === KEPT) {
      let value: T;
      if (code === KEPT) value = segment.kept!.get(index)!;
      else {
        // decoded once, then kept: a pickle reading it back again and again, even through
        // slots that share a cache entry, never makes a second copy (a long string read back
        // a million times would otherwise be a million strings)
        value = this.readString(code - STRING_AT) as T;
        segment.codes![k] = KEPT;
        (segment.kept ??= new Map()).set(index, value);
      }
      if (typeof value === 'string') {
        this.hotIndex[h] = index;
        this.hotValue[h] = value;
      }
      return value;
    }
    if (code === EMPTY) return undefined;
    return FORGOTTEN;
  }

  /**
   * Lets go of the slots from `from` on that `isFinished` says are done with (`onLetGo` sees
   * each), then settles every segment wholly behind the highest slot written: each slot of
   * those was looked at by this pass or an earlier one.
   */
  forgetFinished(from: number, isFinished: (slot: T) => boolean, onLetGo: (slot: T) => void): void {
    const last = (this.length - 1) >>> SEGMENT_BITS;
    for (let s = from >>> SEGMENT_BITS; s <= last; s++) {
      const segment = this.segments[s];
      if (segment === undefined || segment.values === null) continue;
      const values = segment.values;
      const base = s << SEGMENT_BITS;
      for (let k = Math.max(0, from - base); k < segment.end; k++) {
        const slot = values[k];
        if (slot === undefined || slot === FORGOTTEN || slot === UNREAD || !isFinished(slot))
          continue;
        values[k] = FORGOTTEN;
        onLetGo(slot);
      }
      // a sparse segment (a pickle writing slots far apart) stays a sparse array
      if (s < last && segment.written >= SEGMENT / 2) this.settle(segment, base);
    }
  }

  private settle(segment: Segment<T>, base: number): void {
    const values = segment.values!;
    const stringAt = segment.stringAt!;
    const codes =
      this.sourceSize + STRING_AT < 2 ** 32 ? new Uint32Array(SEGMENT) : new Float64Array(SEGMENT);
    let kept: Map<number, T> | null = null;
    for (let k = 0; k < segment.end; k++) {
      const slot = values[k];
      if (slot === undefined) continue;
      if (slot === FORGOTTEN) codes[k] = LET_GO;
      else if ((typeof slot === 'string' || slot === UNREAD) && stringAt[k] > 0)
        codes[k] = stringAt[k];
      else {
        codes[k] = KEPT;
        (kept ??= new Map()).set(base + k, slot);
      }
    }
    if (segment.dense) {
      // emptied for the next segment (written only below its end)
      values.fill(undefined, 0, segment.end);
      (stringAt as Float64Array).fill(0, 0, segment.end);
      this.pool.push({ values, stringAt: stringAt as Float64Array });
      this.denseLive--;
    }
    segment.values = null;
    segment.stringAt = null;
    segment.codes = codes;
    segment.kept = kept;
  }
}
