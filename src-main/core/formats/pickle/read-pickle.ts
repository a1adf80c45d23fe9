import { FormatError } from '../../bytes/format-error';
import {
  DICT_PROTO,
  isDict,
  newPyDict,
  pyKind,
  type LazyList,
  type PyClassRef,
  type PyDict,
  type PyObjectRef,
  type PyValue,
} from '../../model/py-value';
import { PickleCursor, decodeText, memoOperand } from './pickle-cursor';
import { AsciiStringCache } from '../../bytes/ascii-string-cache';
import { interpretCall, interpretBuild, isSettledObject, type CallContext } from './allow-list';
import { FORGOTTEN, PickleMemo } from './pickle-memo';
import type { PickleItemAt, PickleReplay } from './pickle-replay';
import { skipItem, type SkippedMemoWrites } from './skip-item';
import type { ItemStartScan } from './item-start-scan';
import { DictRecord, type DictRecords } from './dict-records';
import { DictRecordReader, NOT_PLAIN, type RecordMemo } from './read-dict-record';

export interface PickleOptions {
  /** persistent ids (torch storages) become what this returns */
  persistentLoad?: (pid: PyValue) => PyValue;
  /** called every ~64k opcodes with the source offset; may throw to cancel */
  onTick?: (offset: number, samplesRead: number) => void;
  /** lists of at least this many numbers become LazyList byte ranges (default 64) */
  lazyListMin?: number;
  /**
   * called after items were appended to a kept (not lazy) list, with the pickle stack's depth
   * below it: a reader can show a top-level list's items while the rest is still being read.
   * `forgetFinished` lets the memo drop the dicts and lists it holds that are finished (not on
   * the stack), so a reader that replaced them with smaller values lets the old ones go; a
   * later memo read of one fails with pickle/memo-forgotten (the caller reads again without).
   */
  onAppend?: (list: PyValue[], stackDepth: number, forgetFinished: () => void) => boolean | void;
  /**
   * With onAppend: a list's first batch is appended as soon as this many dicts of it are
   * complete (the next one starts), before its APPENDS, and onAppend is asked then (default
   * 64). A reader watching the list then sees each later item of that batch as it completes
   * (onListItem) instead of the whole batch at its end: slime's first batch is a thousand
   * samples, ten megabytes read and a thousand rows built, cold, before the first row could
   * be shown.
   */
  firstBatchEarly?: number;
  /**
   * Each dict of a list that `onAppend` answered true for, as soon as the dict is complete
   * (the next item of its batch starts), before the batch is appended: the value returned
   * takes its place. A reader can then use a sample and let it go while it is young (a batch
   * holds a thousand samples; kept to their append, they outlived the collector's nursery).
   * `index` is where the dict will be in the list.
   */
  onListItem?: (
    list: PyValue[],
    index: number,
    item: PyDict,
    forgetFinished: () => void,
    at: PickleItemAt | null,
  ) => PyValue;
  /**
   * Makes each item onListItem sees readable again alone (readPickleItem): onListItem is told
   * where the item lies (`at`; null for an item that cannot be read alone: one that loads a
   * persistent id the replay cannot load again, or reads a container of an earlier item
   * through the memo), and `replay`
   * keeps the memo values the items read from before they started (interned keys, classes).
   * A pickle that rewrites a memo slot an item read that way fails with pickle/memo-rewritten.
   */
  replay?: PickleReplay;
  /**
   * Asked before each dict of a list that `onAppend` answered true for is read, with where the
   * list will hold it and where its bytes start: true walks past the item without building it
   * (skip-item.ts: its memo strings noted where they lie, anything else it memoized let go)
   * and null takes its place; onListItem does not see it. A later item that reads back a
   * container of a skipped one fails with pickle/memo-forgotten.
   */
  skipListItem?: (list: PyValue[], index: number, start: number) => boolean;
  /**
   * With skipListItem: a dict item is passed by finding the next item's first bytes
   * (item-start-scan.ts) rather than walked, once one item was walked to learn them; a memo
   * slot such an item wrote is resolved when it is read (the one item that wrote it walked
   * then). That holds for a pickle that writes its memo in order, which the caller checks
   * (memoOrder, where the same bytes are read in full: read-in-parts.ts).
   */
  scanSkippedItems?: ItemStartScan;
  /**
   * Set to false once the pickle writes a memo slot out of order (one written before, or past
   * the next): CPython's pickler never does, and a reader that scans past items relies on it.
   */
  memoOrder?: { inOrder: boolean };
  /** reading one item again (readPickleItem): memo slots written before it started */
  memoBefore?: (index: number) => PyValue | undefined;
  /** reading one item again: the memo's size when it started (what MEMOIZE numbers from) */
  memoSizeAtStart?: number;
  /**
   * short strings' table, shared by many reads of one item each (readPickleItem): a table of
   * its own per read cost more than the item (16k slots made and collected for each sample)
   */
  shortStrings?: AsciiStringCache;
  /**
   * Dicts read as records (dict-records.ts): the ones at `records.path` of the watched list's
   * items (PickleOptions.onListItem), never any other.
   */
  records?: DictRecords;
}

export interface PickleResult {
  value: PyValue;
  /** source offset just after STOP */
  end: number;
}

/**
 * A real pickle's stack holds a few values and at most one mark-delimited batch (1000 for
 * lists and dicts, a tuple's items): millions of values left on it are a memory bomb (eight
 * bytes a slot for a one-byte NONE).
 */
const MAX_STACK = 4_000_000;
const MAX_MARKS = 100_000;
const MAX_MEMO = 50_000_000;
const MAX_DEPTH = 256;
const MAX_LONG_BYTES = 1 << 16;

/** a walk's memo writes dropped (an item passed by ItemStartScan's reader, resolved later) */
const NO_MEMO_WRITES: SkippedMemoWrites = { size: 0, write: () => {}, writeClass: () => {} };

const TICK_OPS = 1 << 16;
/**
 * Elements the allow-list may copy (set(list), OrderedDict(pairs), bytes(list)) beyond the
 * pickle's own size: copies are the one way a pickle's memory can outgrow its bytes, e.g. a
 * 1 MB pickle applying set() 1,500 times to a million-element list.
 */
const COPY_FLOOR = 1 << 22;

/** A list while the pickle builds it: counted, not kept, once it is long and numeric. */
class ListBuilder {
  items: PyValue[] | null = [];
  lazy: LazyList | null = null;
  /** a list of records (PickleOptions.records) */
  holdsRecords = false;
  constructor(readonly startOffset: number) {}
}

type Slot = PyValue | ListBuilder | typeof MARK_SENTINEL;
const MARK_SENTINEL = Symbol('mark');
/** forgetFinished looks at the memo once at least this many slots were added */
const FORGET_BATCH = 1 << 11;

/**
 * A list or a plain dict: what forgetFinished lets go. Strings, classes and objects stay
 * (real dumps read interned keys, enum members and classes back again and again).
 */
function isFinishedContainer(slot: Slot): boolean {
  if (slot instanceof ListBuilder) return true;
  if (slot === null || typeof slot !== 'object' || slot instanceof Uint8Array) return false;
  return Array.isArray(slot) || isDict(slot);
}

/**
 * An object made by NEWOBJ of a class with no arguments, not yet BUILT: the dict pushed next is
 * its state (interpretBuild then reads the object as that dict).
 */
function awaitsState(slot: Slot): boolean {
  if (pyKind(slot) !== 'object') return false;
  const obj = slot as PyObjectRef;
  return obj.state === undefined && obj.args.length === 0;
}

/**
 * Nesting depth of a container, kept on the container under a symbol (invisible to keys, JSON
 * and structured cloning): a WeakMap entry per dict cost more time and memory than the dict.
 */
const DEPTH = Symbol('depth');
type WithDepth = { [DEPTH]?: number };

/**
 * A pickle read as data. A finite opcode switch; classes are inert references; objects are
 * built only by the allow-list in allow-list.ts, which interprets and never calls. Limits on
 * stack, memo, nesting depth and lengths turn bombs into FormatErrors.
 */
export function readPickle(cursor: PickleCursor, options: PickleOptions = {}): PickleResult {
  const lazyMin = options.lazyListMin ?? 64;
  const stack: Slot[] = [];
  const marks: number[] = [];
  // not a Map: V8 Maps stop at 2^24 entries and big dumps memoize every string
  const memo = new PickleMemo<Slot>((at) => readStringAt(at), cursor.source.size);
  if (options.memoSizeAtStart !== undefined) memo.size = options.memoSizeAtStart;
  // items are read again from the file's bytes: a pickle that is not (a compressed entry) has none
  const replay = cursor.fileOffset === null ? null : (options.replay ?? null);
  // the watched list's item being read (replay): where its bytes start, its dict, the memo
  // then (slots below its length read by the item are kept in `replay`), whether it can be
  // read again alone
  let itemStart = -1;
  let itemDict: PyDict | null = null;
  // the dict about to be made starts the item
  let itemPending = false;
  let itemMemoLength = 0;
  let itemMemoSize = 0;
  let itemAlone = false;
  // the stack's length when the watched batch's next item was expected to start (after its
  // mark or after an object item built): an object item must be built exactly there
  let itemStackAt = -1;
  // the next memo read there may be an object item's class (skipObjectItem)
  let objectMayStart = false;
  // which slots `replay` holds, read here first: memo reads are millions, almost all of a
  // slot it already holds (the interned keys)
  let held: Uint8Array = replay?.held ?? new Uint8Array(0);
  const isHeld = (index: number) => index < held.length && held[index] === 1;
  const memoBefore = options.memoBefore ?? null;
  const skipListItem = options.skipListItem ?? null;
  const scan = skipListItem !== null ? (options.scanSkippedItems ?? null) : null;
  const memoOrder = options.memoOrder ?? null;
  // slots a dict read as a record wrote and then gave up (its reader reads it again, opcode by
  // opcode): written again in the same order, which is no write out of order
  let rewriteNext = 0;
  let rewriteEnd = 0;
  /** memoOrder's check of a write to slot `index`, before it is written (once found out, no more) */
  const checkWriteOrder = (index: number) => {
    if (memoOrder === null || !memoOrder.inOrder || index === memo.length) return;
    if (index === rewriteNext && index < rewriteEnd) {
      rewriteNext++;
      return;
    }
    memoOrder!.inOrder = false;
  };
  // where the last string opcode started and ended: a PUT right after it memoizes that string
  let lastStringAt = -1;
  let lastStringEnd = -1;
  let samplesRead = 0;
  let ops = 0;
  const at = () => cursor.abs(cursor.offset);
  const fail = (code: string, message: string): never => {
    throw new FormatError(code, message, at());
  };
  let copyBudget = COPY_FLOOR + cursor.source.size;
  // containers reached twice (memo, DUP) or built by a call can be mutated after they were
  // nested, which the depth kept on the way up misses: the result is then checked as a graph
  let sharedContainers = false;
  const ctx: CallContext = {
    fail,
    chargeCopy: (elements: number) => {
      copyBudget -= elements;
      if (copyBudget < 0)
        fail('pickle/too-large', 'the pickle copies more elements than its size allows');
    },
  };

  const pop = (): Slot => {
    if (stack.length === 0 || (marks.length > 0 && stack.length <= marks[marks.length - 1])) {
      fail('pickle/stack-underflow', 'the pickle pops more than it pushed');
    }
    return stack.pop()!;
  };
  const top = (): Slot => {
    if (stack.length === 0) fail('pickle/stack-underflow', 'the pickle reads an empty stack');
    return stack[stack.length - 1];
  };
  /** where the innermost mark's items start on the stack; the mark is closed */
  const closeMark = (): number => {
    if (marks.length === 0) fail('pickle/no-mark', 'the pickle closes a mark it never opened');
    return marks.pop()!;
  };
  const popMark = (): Slot[] => stack.splice(closeMark());
  const firstBatchEarly = options.onAppend ? (options.firstBatchEarly ?? 64) : 0;
  const records = options.records ?? null;
  /**
   * Whether a dict pushed now is one of `records`: the innermost mark holds a batch of the
   * list at key path[1] of the dict whose batch is the next mark down, at key path[0] of the
   * dict whose batch is the next, an item of the watched list's batch (the mark below it).
   */
  const recordHere = (): boolean => {
    const n = marks.length;
    if (records === null || watched === null || n < 4) return false;
    const m = marks[n - 1];
    const t = marks[n - 2];
    if (m < 2 || !(stack[m - 1] instanceof ListBuilder) || stack[m - 2] !== records.path[1])
      return false;
    // the keys sit at even places of their dict's batch (key, value, key, value ...)
    if (t < 2 || (m - 2 - t) % 2 !== 0 || !isPyDictObject(stack[t - 1])) return false;
    const s = marks[n - 3];
    if (stack[t - 2] !== records.path[0] || (t - 2 - s) % 2 !== 0 || s < 1) return false;
    const w = marks[n - 4];
    if (!(w > 0 && stack[w - 1] === watched && s - 1 >= w && isPyDictObject(stack[s - 1])))
      return false;
    const list = stack[m - 1] as ListBuilder;
    if (!list.holdsRecords) {
      list.holdsRecords = true;
      recordHolders.add(stack[t - 1] as object);
      recordHolders.add(stack[s - 1] as object);
    }
    return true;
  };
  /** the dicts that hold a list of records (an item, the dict at path[0] of it) */
  const recordHolders = new WeakSet<object>();
  /** a record, or a container that holds one */
  const holdsRecords = (slot: Slot): boolean =>
    slot instanceof DictRecord ||
    (slot instanceof ListBuilder
      ? slot.holdsRecords
      : typeof slot === 'object' && slot !== null && recordHolders.has(slot));
  /**
   * A record, or a container that holds one, is read back (memo, DUP): it would be a value of
   * something else than its list, which only its reader reads (a sample that keeps an event
   * dict in its metadata too). The caller reads the pickle again without records.
   */
  const recordReadBack = (): never =>
    fail('pickle/record-read-back', 'the pickle reads back a dict read as a record');
  // the list whose items go to onListItem as they are complete, and its next item's index
  let watched: ListBuilder | null = null;
  let nextWatchedItem = 0;
  const push = (v: Slot) => {
    if (stack.length >= MAX_STACK) fail('pickle/too-large', 'the pickle stack grows without bound');
    stack.push(v);
  };
  /**
   * A new dict starts at the watched list's batch level: the item below it there is complete.
   * Only a new dict says so: a key pushed for SETITEM onto a one-key dict, a call's arguments
   * or an object's state are pushed there too while the item below is still being built.
   * (CPython's pickler never changes an item once the next one started; a pickle that does
   * changes the value that took its place.)
   */
  const itemDone = (opOffset: number): boolean => {
    const m = marks[marks.length - 1];
    const target = watched;
    if (target === null || stack[m - 1] !== target) return false;
    const p = stack.length - 1;
    // the dict an object item (NEWOBJ of a class) is about to be BUILT from: part of that item
    if (p >= m && awaitsState(stack[p])) return false;
    objectMayStart = false;
    if (p >= m) itemComplete(target, p - m, p, opOffset);
    // the dict about to be pushed starts the next item
    const index = (target.items?.length ?? 0) + p + 1 - m;
    // past scanned items: every slot below this item's first was written before it, here or not
    if (scan !== null && scan.scanned > 0) {
      const first = scan.slotOf(cursor, opOffset);
      if (first > memo.length) memo.length = first;
    }
    if (
      skipListItem !== null &&
      target.items !== null &&
      skipListItem(target.items, index, cursor.abs(opOffset))
    ) {
      const end = scan === null ? -1 : scan.itemEnd(cursor, opOffset);
      if (end >= 0) {
        // passed by its length, about four bytes an opcode (ticks count opcodes)
        ops += (end - opOffset) >>> 2;
        cursor.seek(end);
      } else if (scan !== null && scan.scanned > 0 && scan.note(cursor, opOffset)) {
        // one the scan could not end in the window: walked, its memo writes left to be
        // resolved as a scanned one's are (memo segments written here and there made every
        // later memo write and read slower: sparse and dense arrays at the same sites)
        ops += skipItem(cursor, NO_MEMO_WRITES, MAX_MARKS);
      } else {
        ops += skipItem(cursor, skippedWrites, MAX_MARKS);
        scan?.learn(cursor, opOffset);
      }
      push(null);
      nextWatchedItem = index + 1;
      itemDict = null;
      return true;
    }
    itemStarts(opOffset);
    return false;
  };
  /** The watched list's item at stack[p] (`k`th of its batch) is complete; its bytes end at `end`. */
  const itemComplete = (target: ListBuilder, k: number, p: number, end: number) => {
    const list = target.items;
    const index = (list?.length ?? 0) + k;
    // a value pushed again at the same place (a call's result) completes nothing new
    if (list === null || index < nextWatchedItem) return;
    nextWatchedItem = index + 1;
    const item = stack[p];
    if (!isPlainDict(item)) return;
    // where it lies: from where the item at its place started (an item before it at its place
    // that was not a dict, an object never built, would start the range too early)
    const at: PickleItemAt | null =
      item === itemDict && itemAlone && p === itemStackAt
        ? { start: itemStart, end: cursor.abs(end), memoSize: itemMemoSize }
        : null;
    itemDict = null;
    // the item leaves now, before STOP checks the whole value: a cycle or a path too deep in
    // it must be found here (a sample that contains itself overflowed the stack of summary's
    // attribute conversion, where rows answered pickle/cycle). Each container is checked once.
    if (sharedContainers) checkGraph(item, fail);
    stack[p] = options.onListItem!(list, index, item, forgetFinished, at);
  };
  /**
   * The watched batch's next item starts at source offset `offset`, at the stack's top: where
   * it lies and what memo it reads from before it (replay) are noted from here.
   */
  const itemStarts = (offset: number) => {
    itemStackAt = stack.length;
    if (replay === null) return;
    itemStart = cursor.abs(offset);
    itemPending = true;
    itemMemoLength = memo.length;
    itemMemoSize = memo.size;
    itemAlone = true;
  };
  /**
   * The watched batch's next item may start at the cursor (after the batch's mark, or after an
   * object item was built): where an object item starts, which no EMPTY_DICT says (a dict item
   * says it again at its EMPTY_DICT).
   */
  const nextItemHere = () => {
    itemStarts(cursor.offset);
    objectMayStart = skipListItem !== null;
  };
  /**
   * The memo read at `opOffset` of slot `index` may start an object item of the watched batch
   * (its class read back, where the next item starts): asked whether to walk past it
   * (skipListItem), as a dict item is asked at its EMPTY_DICT. True when it walked past it.
   */
  const skipObjectItem = (opOffset: number, index: number): boolean => {
    objectMayStart = false;
    const target = watched;
    if (target === null || target.items === null || stack.length !== itemStackAt) return false;
    const m = marks.length > 0 ? marks[marks.length - 1] : -1;
    if (m <= 0 || stack[m - 1] !== target || pyKind(memo.get(index)) !== 'class') return false;
    const itemIndex = target.items.length + stack.length - m;
    if (!skipListItem!(target.items, itemIndex, cursor.abs(opOffset))) return false;
    cursor.seek(opOffset);
    ops += skipItem(cursor, skippedWrites, MAX_MARKS, true);
    push(null);
    nextWatchedItem = itemIndex + 1;
    itemDict = null;
    nextItemHere();
    return true;
  };
  /**
   * An object item of the watched list was just BUILT at stack[p] (slime's Sample objects, read
   * as the dict of their attributes): it is complete (CPython's pickler never changes an object
   * after its BUILD), and the next item starts after it.
   */
  const objectItemBuilt = (target: ListBuilder, m: number, p: number) => {
    itemComplete(target, p - m, p, cursor.offset);
    nextItemHere();
  };
  const value = (slot: Slot): PyValue => {
    if (slot === MARK_SENTINEL) return fail('pickle/bad-mark', 'a mark used as a value');
    if (slot instanceof ListBuilder) return slot.lazy ?? slot.items!;
    return slot;
  };
  const nest = (container: object, child: PyValue) => {
    if (child !== null && typeof child === 'object') {
      const d = ((child as WithDepth)[DEPTH] ?? 0) + 1;
      if (d > MAX_DEPTH)
        fail('pickle/too-deep', `the pickle nests deeper than ${MAX_DEPTH} levels`);
      if (d > ((container as WithDepth)[DEPTH] ?? 0)) (container as WithDepth)[DEPTH] = d;
    }
  };
  /** a container filled in one step (LIST, FROZENSET, a call's result): depth from its children */
  const nestAll = (container: PyValue) => {
    if (container === null || typeof container !== 'object') return;
    for (const child of childrenOf(container)) nest(container, child);
  };
  /** a value an allow-listed call made or filled: its depth from what it now holds */
  const called = (made: PyValue): PyValue => {
    nestAll(made);
    return made;
  };
  const setItem = (dict: Slot, key: PyValue, v: PyValue) => {
    if (
      dict instanceof ListBuilder ||
      dict === null ||
      typeof dict !== 'object' ||
      Array.isArray(dict) ||
      !isDict(dict)
    ) {
      // SETITEM on an inert object: keep the state as data
      if (pyKind(dict) === 'object') {
        const obj = dict as PyObjectRef;
        const state = (
          obj.state && typeof obj.state === 'object' ? obj.state : (obj.state = newPyDict())
        ) as PyDict;
        state[dictKey(key)] = v;
        nest(obj, v);
        return;
      }
      fail('pickle/bad-setitem', 'the pickle sets an item on something that is not a dict');
    }
    setDictItem(dict as PyDict, key, v);
  };
  /** dict[key] = v on a dict (the caller checked it is one) or a record */
  const setDictItem = (dict: PyDict, key: PyValue, v: PyValue) => {
    const k = dictKey(key);
    if (k === 'index') samplesRead++;
    if (dict instanceof DictRecord) dict.set(k, v);
    else dict[k] = v;
    nest(dict, v);
  };
  /**
   * SETITEMS on a dict: the pairs read where they lie on the stack above `from` (a dict per
   * sample's event: millions of them; a copy of each batch was a good part of the garbage),
   * then popped. Checked once for the batch, not once per pair; a string key and a plain value
   * (most pairs) go in as they are (setDictItem's steps).
   */
  const setPairs = (d: PyDict, from: number) => {
    if (d instanceof DictRecord) {
      for (let i = from; i < stack.length; i += 2)
        setDictItem(d, value(stack[i]), value(stack[i + 1]));
      while (stack.length > from) stack.pop();
      return;
    }
    for (let i = from; i < stack.length; i += 2) {
      const key = stack[i];
      const raw = stack[i + 1];
      if (typeof key !== 'string' || typeof raw === 'object' || typeof raw === 'symbol')
        setDictItem(d, value(key), value(raw));
      else {
        if (key === 'index') samplesRead++;
        d[key] = raw;
      }
    }
    // popped, not cut by setting the length (a call into the runtime per batch)
    while (stack.length > from) stack.pop();
  };
  const appendItems = (target: Slot, items: Slot[], startOffset: number) => {
    if (target instanceof ListBuilder) {
      if (target.lazy) {
        for (const item of items) {
          if (typeof item !== 'number' && typeof item !== 'bigint') target.lazy.elemType = 'mixed';
          else if (target.lazy.elemType === 'int' && !Number.isInteger(item))
            target.lazy.elemType = 'float';
        }
        target.lazy.length += items.length;
        target.lazy.byteLength = cursor.abs(cursor.offset) - target.lazy.byteOffset;
        return;
      }
      const list = target.items!;
      for (const item of items) {
        const v = value(item);
        list.push(v);
        nest(list, v);
      }
      if (list.length >= lazyMin && list.every((v) => typeof v === 'number')) {
        target.lazy = {
          $kind: 'lazy-list',
          length: list.length,
          elemType: list.every((v) => Number.isInteger(v)) ? 'int' : 'float',
          byteOffset: cursor.abs(target.startOffset),
          byteLength: cursor.abs(cursor.offset) - cursor.abs(target.startOffset),
        };
        target.items = null;
      } else if (options.onAppend) {
        // the list is read (samples turned to rows) before STOP checks the whole value: its new
        // items are checked for cycles and depth now (each container once)
        if (sharedContainers) {
          for (let k = list.length - items.length; k < list.length; k++) checkGraph(list[k], fail);
        }
        if (options.onAppend(list, stack.length - 1, forgetFinished) === true) {
          if (options.onListItem && watched !== target) {
            watched = target;
            nextWatchedItem = list.length;
          }
        }
      }
      void startOffset;
      return;
    }
    const t = value(target);
    if (pyKind(t) === 'set') {
      const set = t as { items: PyValue[] };
      for (const item of items) {
        const v = value(item);
        set.items.push(v);
        nest(set, v);
      }
      return;
    }
    if (Array.isArray(t)) {
      for (const item of items) {
        const v = value(item);
        t.push(v);
        nest(t, v);
      }
      return;
    }
    fail('pickle/bad-append', 'the pickle appends to something that is not a list');
  };
  /**
   * MARK, numbers, APPENDS onto a list that is (or will be) a lazy byte range: the batch counted
   * where it lies, never pushed (CPython appends token lists in batches of 1000). Anything else
   * after the mark (fewer numbers than a lazy list needs, another opcode) reads as usual.
   */
  const appendNumbers = (target: Slot): boolean => {
    if (!(target instanceof ListBuilder)) return false;
    const lazy = target.lazy;
    if (lazy === null && target.items!.length > 0) return false;
    const from = cursor.offset;
    const count = cursor.scanNumbers();
    if (count === 0 || (lazy === null && count < lazyMin) || cursor.peekU8() !== 0x65) {
      cursor.seek(from);
      return false;
    }
    cursor.u8(); // APPENDS
    ops += count;
    const fraction = cursor.scannedFraction;
    const end = cursor.abs(cursor.offset);
    if (lazy === null) {
      target.lazy = {
        $kind: 'lazy-list',
        length: count,
        elemType: fraction ? 'float' : 'int',
        byteOffset: cursor.abs(target.startOffset),
        byteLength: end - cursor.abs(target.startOffset),
      };
      target.items = null;
    } else {
      if (fraction && lazy.elemType === 'int') lazy.elemType = 'float';
      lazy.length += count;
      lazy.byteLength = end - lazy.byteOffset;
    }
    return true;
  };
  /**
   * A new dict starts at the level of a list's first batch (the innermost mark sits right
   * above an empty list): once `firstBatchEarly` complete dicts are on it, they are appended
   * now (PickleOptions.firstBatchEarly); the batch's APPENDS appends the rest. Items are
   * counted from the mark, so a batch of other values, or of more items when it was first
   * looked at, is left to its APPENDS.
   */
  const appendFirstItems = () => {
    const m = marks[marks.length - 1];
    if (m === 0 || stack.length - m !== firstBatchEarly) return;
    const target = stack[m - 1];
    if (!(target instanceof ListBuilder) || target === watched) return;
    if (target.items === null || target.items.length > 0) return;
    // a list inside an item of another list's batch (a sample's chat messages) is left to its
    // APPENDS: a reader that took it for the list it watches would let its dicts go
    for (let k = marks.length - 2; k >= 0; k--)
      if (stack[marks[k] - 1] instanceof ListBuilder) return;
    for (let i = m; i < stack.length; i++) if (!isPlainDict(stack[i])) return;
    appendItems(target, stack.splice(m), cursor.offset);
  };
  // objects that BUILD may turn into their attribute dict, and the memo slot that holds them
  const memoOfObject = new Map<object, number>();
  /** a memo write's slot is one the memo may hold and a replay did not keep (read or walked past) */
  const checkMemoWrite = (index: number) => {
    if (!Number.isInteger(index) || index < 0)
      fail('pickle/bad-memo', `the pickle writes memo slot ${index}`);
    if (index >= MAX_MEMO) fail('pickle/memo-too-large', 'the pickle memo grows without bound');
    if (replay !== null && index < memo.length) keptByReplay(index);
    checkWriteOrder(index);
  };
  const memoPut = (index: number, opOffset: number) => {
    checkMemoWrite(index);
    const slot = top();
    memo.put(index, slot, opOffset === lastStringEnd ? lastStringAt : -1);
    if (pyKind(slot) === 'object') memoOfObject.set(slot as PyObjectRef, index);
  };
  // memo slots below this were looked at by forgetFinished; forgotten ones hold FORGOTTEN
  let forgottenUpTo = 0;
  const forgetFinished = () => {
    // amortized: each slot is looked at once, and only after enough new ones arrived
    if (memo.length - forgottenUpTo < FORGET_BATCH) return;
    const onStack = new Set<Slot>(stack);
    memo.forgetFinished(
      forgottenUpTo,
      (slot) => isFinishedContainer(slot) && !onStack.has(slot),
      (slot) => memoOfObject.delete(slot as object),
    );
    forgottenUpTo = memo.length;
  };
  /**
   * Slot `index`, written by an item passed by scanning (scanSkippedItems): that item walked
   * now, its memo writes noted as a walk notes them, and the cursor put back; else undefined.
   */
  const resolveScanned = (index: number) => {
    if (!Number.isInteger(index) || index < 0) return undefined;
    const start = scan!.itemOfSlot(index);
    if (start < 0) return undefined;
    const back = cursor.offset;
    cursor.seek(start);
    cursor.u8(); // its EMPTY_DICT: the walk starts after it
    skipItem(cursor, skippedWrites, MAX_MARKS);
    cursor.seek(back);
    return memo.get(index);
  };
  const memoGet = (index: number) => {
    let slot = Number.isInteger(index) && index >= 0 ? memo.get(index) : undefined;
    if (slot === undefined && memoBefore !== null) slot = memoBefore(index);
    if (slot === undefined && scan !== null) slot = resolveScanned(index);
    if (slot === undefined)
      return fail('pickle/bad-memo', `the pickle reads memo ${index} that was never written`);
    if (slot === FORGOTTEN)
      return fail('pickle/memo-forgotten', `the pickle reads memo ${index} after it was let go`);
    if (holdsValues(slot)) {
      if (records !== null && holdsRecords(slot)) recordReadBack();
      sharedContainers = true;
      // a container of an earlier item: reading this item alone would not share it
      if (index < itemMemoLength) itemAlone = false;
    } else if (index < itemMemoLength && replay !== null && !isHeld(index))
      held = replay.keep(index, slot as PyValue);
    push(slot);
  };
  /** a slot an item read from before it started is written again: a replay would misread it */
  const keptByReplay = (index: number) => {
    if (isHeld(index))
      fail('pickle/memo-rewritten', `the pickle writes memo ${index} again after items read it`);
  };
  /** the memo writes of an item walked past (skipListItem), checked as memoPut checks them */
  const skippedWrites: SkippedMemoWrites = {
    get size() {
      return memo.size;
    },
    write: (index, stringAt) => {
      checkMemoWrite(index);
      memo.putUnread(index, stringAt);
    },
    writeClass: (index, module, name) => {
      checkMemoWrite(index);
      memo.put(index, classRef(module, name), -1);
    },
  };
  /** the memo as readDictRecord writes and reads it: memoGet's and memoPut's steps */
  const recordMemo: RecordMemo = {
    get size() {
      return memo.size;
    },
    plain: (index) => {
      const slot = memo.get(index);
      if (
        slot === undefined ||
        slot === null ||
        typeof slot === 'symbol' ||
        typeof slot === 'object'
      )
        return NOT_PLAIN;
      if (index < itemMemoLength && replay !== null && !isHeld(index))
        held = replay.keep(index, slot);
      return slot;
    },
    put: (index, value, stringAt) => {
      if (!memoWritable(index)) return false;
      checkWriteOrder(index);
      memo.put(index, value, stringAt);
      return true;
    },
    putUnread: (index, stringAt) => {
      if (!memoWritable(index)) return false;
      checkWriteOrder(index);
      memo.putUnread(index, stringAt);
      return true;
    },
  };
  /** checkMemoWrite's checks, answered */
  const memoWritable = (index: number) =>
    Number.isInteger(index) &&
    index >= 0 &&
    index < MAX_MEMO &&
    !(replay !== null && index < memo.length && isHeld(index));
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const shortStrings = options.shortStrings ?? new AsciiStringCache();
  const str = (n: number) => cursor.text(n, shortStrings, decoder);
  const recordReader = new DictRecordReader(cursor, recordMemo, str);
  /** the text of the string opcode at `at` again (a settled memo slot read back) */
  const readStringAt = (at: number): string => {
    const head = cursor.peekAt(at, Math.min(9, cursor.source.size - at));
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const [skip, n] =
      head[0] === 0x8c
        ? [2, head[1]]
        : head[0] === 0x58
          ? [5, view.getUint32(1, true)]
          : [9, Number(view.getBigUint64(1, true))];
    return decodeText(cursor.peekAt(at + skip, n), shortStrings, decoder);
  };
  const latin1 = (n: number) => {
    const b = cursor.bytes(n);
    let s = '';
    for (let i = 0; i < b.length; i += 0x8000)
      s += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return s;
  };
  const copyBytes = (n: number) => cursor.bytes(n).slice();

  // The common opcodes of a dump (numbers, strings, memo reads of strings, memo writes: most
  // of a sample's 1,600), read straight off the window: no call per byte, no switch, no
  // closure per push; at the window's end the next window is read and the run goes on.
  // Anything else, the source's last bytes, a due tick or a check that would fail stops the
  // run at that opcode, and the switch below reads it as usual. A
  // function of its own, not a loop inside the main one: a second loop header there doubled
  // the engine's on-stack compiles of this big function (each ~80 ms of CPU, and each a
  // start in the interpreter again).
  const commonOps = (): void => {
    let w = cursor.window;
    let pos = cursor.pos;
    let last = w.length - 9;
    run: for (;;) {
      while (pos <= last && ops < TICK_OPS - 1 && stack.length < MAX_STACK) {
        const op = w[pos];
        if (op === 0x68 || op === 0x6a) {
          // BINGET, LONG_BINGET of a plain value (an interned key, mostly): memoGet's steps
          if (objectMayStart) break run;
          const index = memoOperand(w, pos, op === 0x68);
          const slot = memo.get(index);
          if (slot === undefined || typeof slot === 'symbol' || typeof slot === 'object') break run;
          if (index < itemMemoLength && replay !== null && !isHeld(index))
            held = replay.keep(index, slot);
          stack.push(slot);
          pos += op === 0x68 ? 2 : 5;
        } else if (op === 0x71 || op === 0x72) {
          // BINPUT, LONG_BINPUT: memoPut (which may fail: the cursor is where the switch has it)
          if (stack.length === 0) break run;
          const index = memoOperand(w, pos, op === 0x71);
          const opOffset = cursor.windowStart + pos;
          cursor.pos = pos += op === 0x71 ? 2 : 5;
          memoPut(index, opOffset);
        } else if (op === 0x4b) {
          stack.push(w[pos + 1]); // BININT1
          pos += 2;
        } else if (op === 0x4d) {
          stack.push(w[pos + 1] | (w[pos + 2] << 8)); // BININT2
          pos += 3;
        } else if (op === 0x4a) {
          // BININT: a signed 32-bit integer, as `|` makes it
          stack.push(w[pos + 1] | (w[pos + 2] << 8) | (w[pos + 3] << 16) | (w[pos + 4] << 24));
          pos += 5;
        } else if (op === 0x47) {
          stack.push(cursor.view.getFloat64(pos + 1, false)); // BINFLOAT
          pos += 9;
        } else if (op === 0x58) {
          // BINUNICODE whose bytes are all in the window
          const n =
            (w[pos + 1] | (w[pos + 2] << 8) | (w[pos + 3] << 16) | (w[pos + 4] << 24)) >>> 0;
          if (n > w.length - pos - 5) break run;
          lastStringAt = cursor.windowStart + pos;
          cursor.pos = pos + 5;
          stack.push(cursor.text(n, shortStrings, decoder));
          pos = cursor.pos;
          lastStringEnd = cursor.windowStart + pos;
        } else if (op === 0x7d) {
          // EMPTY_DICT that starts no item of a watched list (the switch's steps for it are
          // then none): an event's dict, its attrs, a sample's small dicts
          if (itemPending) break run;
          const m = marks.length > 0 ? marks[marks.length - 1] : -1;
          if (m >= 0 && firstBatchEarly > 0 && stack.length - m === firstBatchEarly) break run;
          if (m > 0 && watched !== null && stack[m - 1] === watched) break run;
          if (!recordHere()) {
            stack.push(newPyDict());
            pos += 1;
          } else {
            // read straight into a record when it is written as most are (else opcode by
            // opcode, into a record too, from this EMPTY_DICT)
            cursor.pos = pos;
            const record = records!.make();
            const lengthBefore = memo.length;
            const read = recordReader.read(record);
            if (read < 0) {
              // what it wrote is written again as the dict is read opcode by opcode
              rewriteNext = lengthBefore;
              rewriteEnd = memo.length;
              stack.push(records!.make() as unknown as PyDict);
              pos += 1;
            } else {
              if (recordReader.nested) (record as WithDepth)[DEPTH] = 1;
              stack.push(record as unknown as PyDict);
              pos = cursor.pos;
              ops += read - 1;
            }
          }
        } else if (op === 0x28) {
          // MARK above a dict (its SETITEMS batch): a list's MARK may start a run of numbers or
          // a watched batch, and is left to the switch
          const top = stack.length > 0 ? stack[stack.length - 1] : null;
          if (!(isPyDictObject(top) || top instanceof DictRecord) || marks.length >= MAX_MARKS)
            break run;
          marks.push(stack.length);
          pos += 1;
        } else if (op === 0x75) {
          // SETITEMS of an even batch onto a dict (the switch's checks, passed)
          const from = marks.length > 0 ? marks[marks.length - 1] : 0;
          const d = from > 0 ? stack[from - 1] : null;
          if (!(isPyDictObject(d) || d instanceof DictRecord) || (stack.length - from) % 2 !== 0)
            break run;
          marks.pop();
          // (a nesting too deep fails where the switch would: after the opcode)
          cursor.pos = pos + 1;
          setPairs(d as PyDict, from);
          pos = cursor.pos;
        } else if (op === 0x4e) {
          stack.push(null); // NONE
          pos += 1;
        } else if (op === 0x88 || op === 0x89) {
          stack.push(op === 0x88); // NEWTRUE, NEWFALSE
          pos += 1;
        } else break run;
        ops++;
      }
      // the window's end, more of the source after it: the run goes on in the next window. Left
      // to the switch below, the opcode there (any common one, now and then) was read by a case
      // the engine had not seen run when it compiled this reader, and each such first sent the
      // whole reader back to the interpreter to be compiled again
      if (pos <= last || ops >= TICK_OPS - 1 || stack.length >= MAX_STACK) break;
      if (!cursor.nextRunWindow(pos)) break;
      w = cursor.window;
      pos = cursor.pos;
      last = w.length - 9;
    }
    cursor.pos = pos;
  };

  for (;;) {
    commonOps();
    if (++ops >= TICK_OPS) {
      ops = 0;
      options.onTick?.(cursor.offset, samplesRead);
    }
    const opOffset = cursor.offset;
    const op = cursor.u8();
    switch (op) {
      case 0x80: // PROTO
        if (cursor.u8() > 5) fail('pickle/unsupported-protocol', 'pickle protocol above 5');
        break;
      case 0x95: // FRAME: a length hint only
        cursor.u64();
        break;
      case 0x2e: {
        // STOP
        if (stack.length === 0) fail('pickle/empty', 'the pickle stops with nothing on its stack');
        if (stack.length !== 1 || marks.length > 0)
          fail(
            'pickle/stack-not-empty',
            `the pickle stops with ${stack.length} values and ${marks.length} marks on its stack`,
          );
        const result = value(stack[0]);
        if (sharedContainers) checkGraph(result, fail);
        return { value: result, end: cursor.offset };
      }
      case 0x28: // MARK
        if (marks.length >= MAX_MARKS) fail('pickle/too-deep', 'the pickle opens too many marks');
        if (stack.length > 0 && appendNumbers(stack[stack.length - 1])) break;
        marks.push(stack.length);
        if (watched !== null && stack[stack.length - 1] === watched) nextItemHere();
        break;
      case 0x30: // POP
        if (marks.length > 0 && stack.length === marks[marks.length - 1]) marks.pop();
        else pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: {
        // DUP
        const slot = top();
        if (records !== null && holdsRecords(slot)) recordReadBack();
        if (holdsValues(slot)) sharedContainers = true;
        push(slot);
        break;
      }
      case 0x4e: // NONE
        push(null);
        break;
      case 0x88: // NEWTRUE
        push(true);
        break;
      case 0x89: // NEWFALSE
        push(false);
        break;
      case 0x4b: // BININT1
        push(cursor.u8());
        break;
      case 0x4d: // BININT2
        push(cursor.u16());
        break;
      case 0x4a: // BININT
        push(cursor.i32());
        break;
      case 0x8a: // LONG1
        push(decodeLong(cursor.bytes(cursor.u8())));
        break;
      case 0x8b: {
        // LONG4
        const n = cursor.i32();
        if (n < 0 || n > MAX_LONG_BYTES) fail('pickle/too-large', `an integer of ${n} bytes`);
        push(decodeLong(cursor.bytes(n)));
        break;
      }
      case 0x47: // BINFLOAT
        push(cursor.f64be());
        break;
      case 0x49: {
        // INT (text): also True/False as 01/00
        const text = cursor.line();
        if (text === '01') push(true);
        else if (text === '00') push(false);
        else push(parseIntText(text, fail));
        break;
      }
      case 0x4c: // LONG (text)
        push(parseIntText(cursor.line().replace(/L$/, ''), fail));
        break;
      case 0x46: {
        // FLOAT (text)
        const f = Number(cursor.line());
        push(f);
        break;
      }
      case 0x58: // BINUNICODE
        push(str(cursor.u32()));
        lastStringAt = opOffset;
        lastStringEnd = cursor.offset;
        break;
      case 0x8c: // SHORT_BINUNICODE
        push(str(cursor.u8()));
        lastStringAt = opOffset;
        lastStringEnd = cursor.offset;
        break;
      case 0x8d: // BINUNICODE8
        push(str(cursor.u64()));
        lastStringAt = opOffset;
        lastStringEnd = cursor.offset;
        break;
      case 0x56: // UNICODE (raw-unicode-escape text)
        push(unescapeRawUnicode(cursor.line()));
        break;
      case 0x54: {
        // BINSTRING (py2 str): latin-1
        const n = cursor.i32();
        if (n < 0) fail('pickle/bad-length', 'a negative string length');
        push(latin1(n));
        break;
      }
      case 0x55: // SHORT_BINSTRING
        push(latin1(cursor.u8()));
        break;
      case 0x53: // STRING (repr text)
        push(unquote(cursor.line()));
        break;
      case 0x42: // BINBYTES
        push(copyBytes(cursor.u32()));
        break;
      case 0x43: // SHORT_BINBYTES
        push(copyBytes(cursor.u8()));
        break;
      case 0x8e: // BINBYTES8
        push(copyBytes(cursor.u64()));
        break;
      case 0x96: // BYTEARRAY8
        push(copyBytes(cursor.u64()));
        break;
      case 0x97: // NEXT_BUFFER: out-of-band buffers are not in the file
        fail('pickle/out-of-band-buffer', 'the pickle needs an out-of-band buffer');
        break;
      case 0x98: // READONLY_BUFFER
        break;
      case 0x5d: // EMPTY_LIST
        push(new ListBuilder(opOffset));
        break;
      case 0x6c: {
        // LIST
        const items = popMark().map(value);
        const lb = new ListBuilder(opOffset);
        lb.items = items;
        for (const v of items) nest(items, v);
        push(lb);
        break;
      }
      case 0x61: {
        // APPEND
        const v = pop();
        appendItems(top(), [v], opOffset);
        break;
      }
      case 0x65: {
        // APPENDS
        const from = closeMark();
        // the batch's last item is complete too
        if (watched !== null && from > 0 && stack[from - 1] === watched && stack.length > from)
          itemComplete(watched, stack.length - 1 - from, stack.length - 1, opOffset);
        const items = stack.splice(from);
        appendItems(top(), items, opOffset);
        break;
      }
      case 0x29: // EMPTY_TUPLE
        push([]);
        break;
      case 0x74: {
        // TUPLE
        const t = popMark().map(value);
        for (const v of t) nest(t, v);
        push(t);
        break;
      }
      case 0x85: {
        const a = value(pop());
        const t = [a];
        nest(t, a);
        push(t);
        break;
      }
      case 0x86: {
        const b = value(pop());
        const a = value(pop());
        const t = [a, b];
        nest(t, a);
        nest(t, b);
        push(t);
        break;
      }
      case 0x87: {
        const c = value(pop());
        const b = value(pop());
        const a = value(pop());
        const t = [a, b, c];
        for (const v of t) nest(t, v);
        push(t);
        break;
      }
      case 0x7d: {
        // EMPTY_DICT
        if (firstBatchEarly > 0 && marks.length > 0) appendFirstItems();
        if (watched !== null && marks.length > 0 && itemDone(opOffset)) break;
        const dict = recordHere() ? (records!.make() as unknown as PyDict) : newPyDict();
        if (itemPending) {
          itemDict = dict;
          itemPending = false;
        }
        push(dict);
        break;
      }
      case 0x64: {
        // DICT
        const items = popMark();
        const d = newPyDict();
        for (let i = 0; i + 1 < items.length; i += 2)
          setItem(d, value(items[i]), value(items[i + 1]));
        push(d);
        break;
      }
      case 0x73: {
        // SETITEM
        const v = value(pop());
        const k = value(pop());
        setItem(top(), k, v);
        break;
      }
      case 0x75: {
        // SETITEMS: read the pairs where they lie on the stack (a dict per sample's event:
        // millions of them; a copy of each batch was a good part of the garbage)
        const from = closeMark();
        if ((stack.length - from) % 2 !== 0)
          fail('pickle/bad-setitems', 'SETITEMS with an odd number of items');
        if (from === 0) fail('pickle/stack-underflow', 'the pickle reads an empty stack');
        const d = stack[from - 1];
        if (isPlainDict(d)) setPairs(d, from);
        else {
          for (let i = from; i < stack.length; i += 2)
            setItem(d, value(stack[i]), value(stack[i + 1]));
          // popped, not cut by setting the length (a call into the runtime per batch)
          while (stack.length > from) stack.pop();
        }
        break;
      }
      case 0x8f: // EMPTY_SET
        push({ $kind: 'set', frozen: false, items: [] });
        break;
      case 0x90: {
        // ADDITEMS
        const items = popMark();
        appendItems(top(), items, opOffset);
        break;
      }
      case 0x91: {
        // FROZENSET
        const set: PyValue = { $kind: 'set', frozen: true, items: popMark().map(value) };
        nestAll(set);
        push(set);
        break;
      }
      case 0x63: {
        // GLOBAL
        const module = cursor.line();
        const name = cursor.line();
        push(classRef(module, name));
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const name = value(pop());
        const module = value(pop());
        if (typeof module !== 'string' || typeof name !== 'string')
          fail('pickle/bad-global', 'STACK_GLOBAL needs two strings');
        push(classRef(module as string, name as string));
        break;
      }
      case 0x52: {
        // REDUCE
        const args = value(pop());
        const callable = value(pop());
        push(called(interpretCall(callable, Array.isArray(args) ? args : [args], ctx, false)));
        break;
      }
      case 0x81: {
        // NEWOBJ
        const args = value(pop());
        const cls = value(pop());
        push(called(interpretCall(cls, Array.isArray(args) ? args : [args], ctx, true)));
        break;
      }
      case 0x92: {
        // NEWOBJ_EX
        value(pop()); // kwargs
        const args = value(pop());
        const cls = value(pop());
        push(called(interpretCall(cls, Array.isArray(args) ? args : [args], ctx, true)));
        break;
      }
      case 0x69: {
        // INST
        const module = cursor.line();
        const name = cursor.line();
        const args = popMark().map(value);
        push(called(interpretCall(classRef(module, name), args, ctx, true)));
        break;
      }
      case 0x6f: {
        // OBJ
        const items = popMark().map(value);
        if (items.length === 0) fail('pickle/bad-obj', 'OBJ without a class');
        push(called(interpretCall(items[0], items.slice(1), ctx, true)));
        break;
      }
      case 0x62: {
        // BUILD
        const state = value(pop());
        const obj = value(pop());
        const built = called(interpretBuild(obj, state, ctx));
        push(built);
        if (built !== obj && obj !== null && typeof obj === 'object') {
          // an object read as its attribute dict: its memo entry must see the dict too
          const index = memoOfObject.get(obj);
          if (index !== undefined) {
            if (replay !== null) keptByReplay(index);
            memo.put(index, built, -1);
            // the memo holds the dict now: the object is nobody's (kept here, every object of
            // a dump of Sample objects stayed in memory to the end: 3 a sample)
            memoOfObject.delete(obj);
          }
          // an item of the watched list's batch: complete now
          const m = marks.length > 0 ? marks[marks.length - 1] : -1;
          if (watched !== null && m > 0 && stack[m - 1] === watched && stack.length - 1 >= m)
            objectItemBuilt(watched, m, stack.length - 1);
        }
        break;
      }
      case 0x50: {
        // PERSID
        const pid = cursor.line();
        if (replay?.persistentLoad == null) itemAlone = false;
        push(options.persistentLoad ? options.persistentLoad(pid) : pid);
        break;
      }
      case 0x51: {
        // BINPERSID
        const pid = value(pop());
        // read alone, an item loads its persistent ids again as the replay says (torch's
        // storages: by key, from the file); without one it cannot be read alone
        if (replay?.persistentLoad == null) itemAlone = false;
        push(
          options.persistentLoad
            ? options.persistentLoad(pid)
            : { $kind: 'object', module: 'persistent', name: 'id', args: [pid], state: undefined },
        );
        break;
      }
      case 0x67: // GET
        memoGet(Number(cursor.line()));
        break;
      case 0x68: {
        // BINGET
        const index = cursor.u8();
        if (objectMayStart && skipObjectItem(opOffset, index)) break;
        memoGet(index);
        break;
      }
      case 0x6a: {
        // LONG_BINGET
        const index = cursor.u32();
        if (objectMayStart && skipObjectItem(opOffset, index)) break;
        memoGet(index);
        break;
      }
      case 0x70: // PUT
        memoPut(Number(cursor.line()), opOffset);
        break;
      case 0x71: // BINPUT
        memoPut(cursor.u8(), opOffset);
        break;
      case 0x72: // LONG_BINPUT
        memoPut(cursor.u32(), opOffset);
        break;
      case 0x94: // MEMOIZE
        memoPut(memo.size, opOffset);
        break;
      case 0x82:
      case 0x83:
      case 0x84:
        fail('pickle/extension', 'the pickle uses the copyreg extension registry');
        break;
      default:
        cursor.pos -= 1;
        fail('pickle/bad-opcode', `unknown pickle opcode 0x${op.toString(16).padStart(2, '0')}`);
    }
  }
}

function classRef(module: string, name: string): PyClassRef {
  return { $kind: 'class', module, name };
}

/** Python dict keys as JSON object keys, the way json.dumps writes them. */
export function dictKey(key: PyValue): string {
  if (typeof key === 'string') return key;
  if (key === null) return 'null';
  if (key === true) return 'true';
  if (key === false) return 'false';
  if (typeof key === 'number' || typeof key === 'bigint') return String(key);
  if (Array.isArray(key)) return JSON.stringify(key.map((k) => dictKey(k)));
  return pyKind(key) ?? 'object';
}

/** The values a container holds (dict values, list and set items, an object's args and state). */
function childrenOf(container: object): PyValue[] {
  if (Array.isArray(container)) return container as PyValue[];
  if (container instanceof Uint8Array) return [];
  const kind = pyKind(container);
  if (kind === undefined) return Object.values(container as PyDict);
  if (kind === 'set') return (container as { items: PyValue[] }).items;
  if (kind === 'object') {
    const ref = container as PyObjectRef;
    return ref.state === undefined ? ref.args : [...ref.args, ref.state];
  }
  return []; // lazy lists, tensors, arrays, complex numbers, classes: no nested values
}

/** A dict this reader made (newPyDict): the common opcodes' run takes only these. */
function isPyDictObject(slot: Slot | null): slot is PyDict {
  return typeof slot === 'object' && slot !== null && Object.getPrototypeOf(slot) === DICT_PROTO;
}

/** A dict read from the pickle (not a list, an object, a set or another tagged value). */
function isPlainDict(slot: Slot): slot is PyDict {
  return !(slot instanceof ListBuilder) && slot !== MARK_SENTINEL && isDict(slot);
}

/** Whether a stack slot can hold other values (a class reference or a number cannot). */
function holdsValues(slot: Slot): boolean {
  if (slot instanceof ListBuilder) return true;
  if (slot === null || typeof slot !== 'object' || slot instanceof Uint8Array) return false;
  if (isDict(slot as PyValue) || Array.isArray(slot)) return true;
  const kind = pyKind(slot);
  return kind === 'set' || (kind === 'object' && !isSettledObject(slot as PyObjectRef));
}

/** On a container: in progress (-1) or its checked depth, while checkGraph runs. */
const CHECKED = Symbol('checked');
type WithChecked = { [CHECKED]?: number };
// not enumerable: values are compared and copied by their keys elsewhere
const mark = (container: object, state: number) =>
  Object.defineProperty(container, CHECKED, { value: state, writable: true, configurable: true });

/**
 * The value as a graph, when containers were shared or filled after nesting: no cycle (a
 * reader would recurse forever) and no path deeper than MAX_DEPTH (a reader would overflow its
 * stack). Iterative, and each container is visited once, so shared subtrees cost nothing more.
 */
function checkGraph(root: PyValue, fail: (code: string, message: string) => never): void {
  if (root === null || typeof root !== 'object') return;
  const nodes: object[] = [root];
  const children: PyValue[][] = [childrenOf(root)];
  const next: number[] = [0];
  const deepest: number[] = [0];
  mark(root, -1);
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const list = children[top];
    if (next[top] < list.length) {
      const child = list[next[top]++];
      if (child === null || typeof child !== 'object') continue;
      const seen = (child as WithChecked)[CHECKED];
      if (seen === -1) fail('pickle/cycle', 'the pickle builds a value that contains itself');
      if (seen !== undefined) {
        if (seen + 1 > deepest[top]) deepest[top] = seen + 1;
        continue;
      }
      if (nodes.length > MAX_DEPTH)
        fail('pickle/too-deep', `the pickle nests deeper than ${MAX_DEPTH} levels`);
      mark(child, -1);
      nodes.push(child);
      children.push(childrenOf(child));
      next.push(0);
      deepest.push(0);
      continue;
    }
    const depth = deepest[top];
    mark(nodes[top], depth);
    nodes.pop();
    children.pop();
    next.pop();
    deepest.pop();
    if (top > 0 && depth + 1 > deepest[top - 1]) deepest[top - 1] = depth + 1;
  }
}

/**
 * Two's-complement little-endian integer; a number when exact, else a bigint. Through hex
 * text, in linear time: shifting a BigInt byte by byte is quadratic (200 integers of 64 KiB
 * took 52 s).
 */
function decodeLong(bytes: Uint8Array): number | bigint {
  if (bytes.length === 0) return 0;
  if (bytes.length <= 6) {
    let v = 0;
    for (let i = bytes.length - 1; i >= 0; i--) v = v * 256 + bytes[i];
    if (bytes[bytes.length - 1] & 0x80) v -= 2 ** (8 * bytes.length);
    return v;
  }
  let hex = '';
  for (let i = bytes.length - 1; i >= 0; i--) hex += HEX_BYTE[bytes[i]];
  let v = BigInt(`0x${hex}`);
  if (bytes[bytes.length - 1] & 0x80) v -= 1n << BigInt(8 * bytes.length);
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(v)
    : v;
}

const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function parseIntText(
  text: string,
  fail: (code: string, message: string) => never,
): number | bigint {
  if (!/^[+-]?\d+$/.test(text)) fail('pickle/bad-int', `not an integer: ${text.slice(0, 32)}`);
  const big = BigInt(text);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(big)
    : big;
}

function unquote(text: string): string {
  const q = text[0];
  const body = (q === "'" || q === '"') && text.endsWith(q) ? text.slice(1, -1) : text;
  return body.replace(/\\(x[0-9a-fA-F]{2}|n|r|t|\\|'|")/g, (_m, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e;
  });
}

function unescapeRawUnicode(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (_m, u4?: string, u8?: string) =>
    String.fromCodePoint(parseInt((u4 ?? u8)!, 16)),
  );
}
