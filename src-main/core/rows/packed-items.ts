import { grownColumn } from '../model/grown-column';
import { fitsAttrShape, type AttrColumns, type AttrShape } from '../model/attr-shape';
import type {
  AttrValue,
  Attrs,
  ItemExtras,
  PackedItems,
  PackedRow,
  PdPhase,
  PdRole,
  PointItem,
  Row,
  RowItem,
  SpanItem,
} from '../model/row';
import { NO_ATTRS } from './no-attrs';
import { SpanIds } from './span-ids';

/**
 * A row's items kept as one array of numbers and one of references instead of an object per
 * item (plus its attrs objects and boxed times): at 100k samples the item objects were 430 MB
 * of the heap and a third of the worker's time went to the collector marking and copying them.
 * Rows are packed as they are built; what walks every row, and the rows drawn, read items in
 * place (PackedItemCursor); details unpack the one item asked for, export one row at a time.
 *
 * Layout, item after item:
 *   numbers: spans  [code, start_ts, end_ts (closed spans only), display_end_ts (unless
 *                    SAME_END), attempt, lane, depth (unless COMPACT), ...attr numbers,
 *                    ...PD numbers]
 *            points [code, ts, attempt, lane, depth (unless COMPACT), ...attr numbers]
 *   refs:    [head, parent_span_name, span id, parent span id, ...attr values that are not
 *             numbers, ...PD phase names, extras (when the code says so: the set of their
 *             keys as a bit mask, then their values; plain links, in a row that numbers its
 *             refs, a slot below -2 into the table's LinkLists)]
 * A row that numbers its span ids keeps its refs as 32-bit integers, in shared chunks like the
 * numbers: a value (a name, a string attr, null) is its place in ItemTable's `values`, where a
 * primitive is kept once per file (a dump's 5M refs are a few dozen values); as a JS array
 * each slot took 8 bytes of the heap the collector walks. A row too long to number its ids
 * keeps its refs as they are, in an array of its own: its ids and values are mostly its own,
 * and a Chrome trace's million-item rows through the values' table opened 15% slower.
 * `head` numbers the item's name and attrs shape among the file's (ItemTable): 6 for a dump's
 * million items, 46k for a Chrome trace's 2M (with the parent name too it was 650k). Span ids
 * are numbers of ItemTable's SpanIds (the same id twice in a row, a span's and its children's
 * parent id, is one number), NO_ID for null; a row of more than DEDUPED_ROW_ITEMS items keeps
 * its ids as they are.
 * `code` holds in its low 8 bits the state (STATES), the PD role << 2, HAS_EXTRAS,
 * NULL_ATTEMPT (the attempt is then 0), COMPACT and SAME_END. COMPACT: the attempt (below
 * 256), lane and depth (below 65536) are whole numbers kept in the code above those bits instead
 * of three numbers of their own; SAME_END: a closed span's display end is its end. A span then
 * takes 3 numbers instead of 7 (about 30 MB of 80 at 100k samples).
 * PD numbers: the parent's duration, the phase count, each phase's duration. An attr's keys, in
 * order, and which of its values are numbers are the item's shape, shared by the items that
 * look alike.
 */

const STATES = ['closed_span', 'open_span', 'point_event', 'orphan_end'] as const;
const PD_ROLES: (PdRole | null)[] = [null, 'prefill', 'decode'];
const HAS_EXTRAS = 16;
const NULL_ATTEMPT = 32;
const COMPACT = 64;
const SAME_END = 128;
/**
 * A COMPACT code: its low 32 bits are the flags (8), the attempt (8) and the lane (16); the
 * depth (16) is above them. Read back with 32-bit integer operations and one exact division.
 */
const ATTEMPT_LIMIT = 2 ** 8;
const LANE_LIMIT = 2 ** 16;
const DEPTH_LIMIT = 2 ** 16;
const HIGH = 2 ** 32;
/** a whole number that fits its place in a COMPACT code (not -0: it would come back 0) */
const fitsIn = (value: number, limit: number) =>
  Number.isInteger(value) && value >= 0 && value < limit && !Object.is(value, -0);

/** An attrs object's keys in order, and for each whether its value is a number. */
interface AttrSection {
  keys: string[];
  numeric: boolean[];
  /** how many of its values are numbers (the rest are references) */
  numberCount: number;
  /** per key, how many values of its kind (number or reference) come before it here */
  slots: number[];
}

/** The attrs of an item: two sections for a span (start, end), one for a point. */
interface ItemShape {
  sections: AttrSection[];
  /** how many numbers and references its attr values take */
  numberCount: number;
  refCount: number;
  /** per section, where its numbers and its references begin among the item's attr values */
  numberStarts: number[];
  refStarts: number[];
}

/**
 * What an item may carry beyond the layout (ItemExtras but its PD view): OTLP, Chrome. In the
 * order OTLP's spans declare them (Chrome's have the same relative order): an item unpacked has
 * them in this order.
 */
const EXTRA_KEYS = [
  'service',
  'otel',
  'lane_label',
  'error',
  'missing_parent',
  'links',
  'category',
] as const;
type ExtraKey = (typeof EXTRA_KEYS)[number];
// a key added to ItemExtras must be added above, or packing would drop it
type UnlistedExtra = Exclude<keyof ItemExtras, 'pd' | ExtraKey>;
const EVERY_EXTRA_LISTED: [UnlistedExtra] extends [never] ? true : never = true;
void EVERY_EXTRA_LISTED;
/** per set of extras an item has (a bit per EXTRA_KEYS entry), its keys: one array each */
const EXTRA_KEY_LISTS: (readonly ExtraKey[])[] = Array.from(
  { length: 1 << EXTRA_KEYS.length },
  (_, mask) => EXTRA_KEYS.filter((_key, k) => (mask & (1 << k)) !== 0),
);

/** What the rows of one packer share: their items' heads, span ids and referenced values. */
interface ItemTable {
  heads: ItemHead[];
  ids: SpanIds;
  /** the values refs point at: null and undefined first, then as the packer met them */
  values: unknown[];
  /** items' plain link lists (see LinkLists), where their refs' slots point below -2 */
  links: LinkLists;
}

/**
 * Links of the plain shape ({ trace_id, span_id, dangling }, as Chrome's flows and OTLP's
 * links without attrs are) kept as numbers, one list after another: its length, then per link
 * the trace id's value ref, the span id's number (SpanIds) and 1 if dangling. As an array of
 * objects per item in the values, a GPU rank's 243k launch-to-kernel links took 30 MB of the
 * heap, and 66 MB once a helper thread's rank was copied here (each trace id its own string).
 */
interface LinkLists {
  data: Int32Array;
  length: number;
}

/** a links slot's value: where its list starts in LinkLists, below UNDEFINED_ID's -2 */
const linksSlot = (at: number) => -3 - at;
const LINK_KEYS = ['trace_id', 'span_id', 'dangling'] as const;

/** What items of one name and attrs shape have alike. */
interface ItemHead {
  name: string;
  shape: ItemShape;
}

/** a span id of null, and of undefined (a format that left it out) */
const NO_ID = -1;
const UNDEFINED_ID = -2;
/**
 * A row of more items keeps its ids as they are: numbering them (one per id per row) needs a
 * map of the row's ids, and a Chrome process row of a million spans spent seconds on it.
 */
const DEDUPED_ROW_ITEMS = 4096;
/** A row's ids are looked through up to this many, then found in a map. */
const LISTED_IDS = 32;

/** a value ref to null, and to undefined */
const NULL_REF = 0;
const UNDEFINED_REF = 1;
/** strings up to this long are kept once per file (longer ones are text, rarely repeated) */
const SHARED_TEXT = 256;
/**
 * At most this many distinct values are kept once: past it (a trace whose every value is its
 * own) each is kept where it is met, as in a plain array, without a map entry for it.
 */
const MAX_SHARED_VALUES = 1 << 20;

/**
 * Packs rows, sharing shapes between the rows of one file (one packer per file: the shapes it
 * keeps are bounded by what the file holds).
 */
export class ItemPacker {
  private readonly shapes = new Map<string, ItemShape>();
  /** where the rows' numbers are put side by side */
  private readonly chunks = new SharedChunks(Float64Array, NUMBER_CHUNK);
  private readonly table: ItemTable = {
    heads: [],
    ids: new SpanIds(),
    values: [null, undefined],
    links: { data: new Int32Array(0), length: 0 },
  };
  /** where the rows' refs are put side by side */
  private readonly refChunks = new SharedChunks(Int32Array, REF_CHUNK);
  /** each primitive value's ref (values kept once) */
  private readonly valueRefs = new Map<unknown, number>();
  /** each head's number, by shape and name */
  private readonly headNumbers = new Map<ItemShape, Map<string, number>>();
  /** the head each name had last: almost every item matches it */
  private readonly lastHead = new Map<string, number>();
  /** the row being packed's first LISTED_IDS span ids with their numbers, then the rest */
  private readonly rowIdList: unknown[] = [];
  private readonly rowIds = new Map<unknown, number>();
  /** whether the row being packed numbers its ids (not one too long: see DEDUPED_ROW_ITEMS) */
  private numberIds = true;
  /**
   * the last few shapes items of a name had, latest first: almost every item matches one (a
   * request-metrics record's keys vary with its finish reason and cache details, so one kept
   * shape missed every other record, and each miss cost a JSON.stringify of its keys)
   */
  private readonly lastShapes = new Map<string, ItemShape[]>();
  /** the section of each shape a format gives attrs as columns in (AttrColumns.shape) */
  private readonly columnSections = new Map<AttrShape, AttrSection>();
  /** the row being packed's numbers, in a buffer kept for every row (NumberScratch) */
  private readonly numbers = new Scratch(Float64Array);
  /** the row being packed's refs where it numbers them, in a buffer kept for every row */
  private readonly refNumbers = new Scratch(Int32Array);
  private refs: unknown[] = [];
  /** items added to the row being packed */
  private count = 0;

  /**
   * `rows` (packed here, and none will be after) for another thread: those in its last shared
   * chunks given copies cut to what is used. A copy to another thread copies whole buffers:
   * the last chunks' unused ends were up to 2 MiB more per piece a helper sent.
   */
  rowsToSend(rows: PackedRow[]): PackedRow[] {
    const numbers = this.chunks.cut();
    const refs = this.refChunks.cut();
    if (numbers === null && refs === null) return rows;
    return rows.map((row) => {
      const { packed } = row;
      const ownNumbers = numbers !== null && packed.numbers === numbers.from;
      const ownRefs = refs !== null && packed.refs === refs.from;
      if (!ownNumbers && !ownRefs) return row;
      return {
        ...row,
        packed: {
          ...packed,
          numbers: ownNumbers ? numbers.to : packed.numbers,
          refs: ownRefs ? refs.to : packed.refs,
        },
      };
    });
  }

  /** `row` without its item objects: what a file keeps of it. */
  packRow(row: Row): PackedRow {
    const { items, ...fields } = row;
    return Object.assign(fields, { packed: this.pack(items) });
  }

  pack(items: readonly RowItem[]): PackedItems {
    this.begin(items.length);
    for (const item of items) this.add(item);
    return this.end();
  }

  /**
   * Packing a row item by item: `begin` with how many items it will have, `add` each in order,
   * `end` for its packed items. A format that makes its items one at a time (a GPU rank's
   * million) never holds them all as objects.
   */
  begin(count: number, countedIds = false): void {
    this.numbers.clear();
    this.refNumbers.clear();
    this.refs = [];
    this.rowIdList.length = 0;
    if (this.rowIds.size > 0) this.rowIds.clear();
    // a row whose ids are all counted (add's spanRef and parentRef) needs no map of them
    this.numberIds = count <= DEDUPED_ROW_ITEMS || countedIds;
    this.count = 0;
  }

  /**
   * Numbers for span ids made of `prefix` and a counter from 0 below `count`, for `add`'s
   * `spanRef` and `parentRef` (SpanIds.counted): the id n is the base returned + n. Null when
   * they cannot be numbered so (the items then carry their ids as text).
   */
  countedIds(prefix: string, count: number): number | null {
    return this.table.ids.counted(prefix, count);
  }

  /** add's spanRef or parentRef of an item without one */
  readonly noSpanRef = NO_ID;

  /**
   * `spanRef` and `parentRef`, when given, are the item's span id and parent span id as
   * countedIds numbers them (noSpanRef for none), and its span_id and parent_span_id are not
   * read: a format that counts its spans makes no id text per item. `startColumns`, when
   * given, are a span's start attrs (its start_attrs are not read): their values are copied as
   * they are, in the order an object of them would give.
   */
  add(item: RowItem, spanRef?: number, parentRef?: number, startColumns?: AttrColumns): void {
    const { numbers } = this;
    this.count++;
    const pd = item.type === 'span' ? item.pd : undefined;
    const extras = extrasMask(item);
    const attempt = item.attempt ?? 0;
    const compact =
      fitsIn(attempt, ATTEMPT_LIMIT) &&
      fitsIn(item.lane, LANE_LIMIT) &&
      fitsIn(item.depth, DEPTH_LIMIT);
    const sameEnd =
      item.type === 'span' &&
      item.state === 'closed_span' &&
      Object.is(item.display_end_ts, item.end_ts);
    const flags =
      STATES.indexOf(item.state) |
      ((pd ? PD_ROLES.indexOf(pd.role) : 0) << 2) |
      (extras ? HAS_EXTRAS : 0) |
      (item.attempt === null ? NULL_ATTEMPT : 0) |
      (compact ? COMPACT : 0) |
      (sameEnd ? SAME_END : 0);
    const code = compact
      ? ((flags | (attempt << 8) | (item.lane << 16)) >>> 0) + item.depth * HIGH
      : flags;
    const shape =
      item.type !== 'span'
        ? this.shapeOf(item.name, item.attrs, null)
        : startColumns === undefined
          ? this.shapeOf(item.name, item.attrs.start_attrs, item.attrs.end_attrs)
          : this.shapeOfColumns(item.name, startColumns.shape, item.attrs.end_attrs);
    this.pushSlot(this.headOf(item.name, shape));
    this.pushRef(item.parent_span_name);
    this.pushSlot(spanRef === undefined ? this.idOf(item.span_id) : spanRef);
    this.pushSlot(parentRef === undefined ? this.idOf(item.parent_span_id) : parentRef);
    if (item.type === 'span') {
      numbers.push(code);
      numbers.push(item.start_ts);
      if (item.state === 'closed_span') numbers.push(item.end_ts ?? 0);
      if (!sameEnd) numbers.push(item.display_end_ts);
      if (!compact) numbers.push3(attempt, item.lane, item.depth);
      if (startColumns === undefined) this.putAttrs(shape.sections[0], item.attrs.start_attrs);
      else this.putColumns(shape.sections[0], startColumns);
      this.putAttrs(shape.sections[1], item.attrs.end_attrs);
      if (pd) {
        numbers.push(pd.parentDurationSec);
        numbers.push(pd.phases.length);
        for (const phase of pd.phases) {
          numbers.push(phase.durationSec);
          this.pushRef(phase.phase);
        }
      }
    } else {
      numbers.push(code);
      numbers.push(item.ts);
      if (!compact) numbers.push3(attempt, item.lane, item.depth);
      this.putAttrs(shape.sections[0], item.attrs);
    }
    if (extras) {
      this.pushSlot(extras);
      pushExtras(item, extras, this.pushRef, this.pushLinks);
    }
  }

  end(): PackedItems {
    const { refs } = this;
    this.refs = [];
    const numbers = this.numbers.take();
    const { chunk, first } = this.chunks.put(numbers.values, numbers.own);
    // a long row's refs are kept as they are (copying a Chrome process row's millions of refs
    // held two of them at once)
    const refNumbers = this.numberIds ? this.refNumbers.take() : null;
    const placed = refNumbers
      ? this.refChunks.put(refNumbers.values, refNumbers.own)
      : { chunk: refs, first: 0 };
    this.numbers.shrink();
    this.refNumbers.shrink();
    return {
      count: this.count,
      numbers: chunk,
      first,
      refs: placed.chunk,
      refsFirst: placed.first,
      table: this.table,
    };
  }

  /** pushes what a ref slot holds for `value` onto the row's refs */
  private readonly pushRef = (value: unknown): void => {
    this.pushSlot(this.ref(value));
  };

  /** pushes an item's links: a plain list into the table's LinkLists, where the row numbers its refs */
  private readonly pushLinks = (links: unknown): void => {
    const at = this.numberIds ? this.putLinks(links) : -1;
    this.pushSlot(at >= 0 ? linksSlot(at) : this.ref(links));
  };

  /** `links` into the table's LinkLists: where it starts, or -1 when it is not a plain list */
  private putLinks(links: unknown): number {
    if (!Array.isArray(links) || links.length === 0) return -1;
    for (const link of links) if (!isPlainLink(link)) return -1;
    const lists = this.table.links;
    const at = lists.length;
    const end = at + 1 + 3 * links.length;
    if (end > lists.data.length) lists.data = grownColumn(lists.data, end, 2);
    const { data } = lists;
    data[at] = links.length;
    let k = at + 1;
    for (const link of links as { trace_id: string; span_id: string; dangling: boolean }[]) {
      data[k++] = this.valueRef(link.trace_id);
      data[k++] = this.table.ids.number(link.span_id);
      data[k++] = link.dangling ? 1 : 0;
    }
    lists.length = end;
    return at;
  }

  /** pushes a ref slot as it is (a number, where the row numbers its refs) */
  private pushSlot(slot: unknown): void {
    if (this.numberIds) this.refNumbers.push(slot as number);
    else this.refs.push(slot);
  }

  /** what a ref slot holds: the value's ref in a row that numbers its ids, else the value */
  private ref(value: unknown): unknown {
    return this.numberIds ? this.valueRef(value) : value;
  }

  /** `value`'s place in the table's values: a primitive's the first time it was met */
  private valueRef(value: unknown): number {
    if (value === null) return NULL_REF;
    if (value === undefined) return UNDEFINED_REF;
    const values = this.table.values;
    // a frozen object is one copy its format shares (Chrome's args arrays, SharedValues): kept
    // once too, by identity. Each use had a slot of its own: two per event of a GPU rank, the
    // largest array of eight ranks' open (hundreds of MB), marked again by every collection
    const shared =
      typeof value === 'string'
        ? value.length <= SHARED_TEXT
        : typeof value === 'object'
          ? Object.isFrozen(value)
          : typeof value !== 'function' && !Object.is(value, -0);
    if (!shared) return values.push(value) - 1;
    const known = this.valueRefs.get(value);
    if (known !== undefined) return known;
    const ref = values.push(value) - 1;
    if (this.valueRefs.size < MAX_SHARED_VALUES) this.valueRefs.set(value, ref);
    return ref;
  }

  private headOf(name: string, shape: ItemShape): number {
    const last = this.lastHead.get(name);
    if (last !== undefined && this.table.heads[last].shape === shape) return last;
    let byName = this.headNumbers.get(shape);
    if (byName === undefined) this.headNumbers.set(shape, (byName = new Map()));
    let head = byName.get(name);
    if (head === undefined) {
      head = this.table.heads.push({ name, shape }) - 1;
      byName.set(name, head);
    }
    this.lastHead.set(name, head);
    return head;
  }

  private idOf(id: unknown): unknown {
    // a row too long to number its ids keeps them as they are (a number is always numbered,
    // so that a number read back is one of SpanIds')
    if (!this.numberIds && (typeof id === 'string' || id === null || id === undefined)) return id;
    if (id === null) return NO_ID;
    if (id === undefined) return UNDEFINED_ID;
    // the row's ids so far, looked through (a dump's row names about ten: a map per row cost
    // more); a child's parent id is mostly the very string its parent's id is
    const seen = this.rowIdList;
    for (let k = 0; k < seen.length; k += 2) if (seen[k] === id) return seen[k + 1];
    if (seen.length >= 2 * LISTED_IDS) {
      const known = this.rowIds.get(id);
      if (known !== undefined) return known;
    }
    const number = this.table.ids.add(id);
    if (seen.length < 2 * LISTED_IDS) seen.push(id, number);
    else this.rowIds.set(id, number);
    return number;
  }

  /**
   * The values of `attrs`, whose shape is `section` (its keys in for-in order): read in a for-in
   * loop, where V8 finds each value by the object's enum cache (a load by each of the section's
   * keys was a slow lookup each, 3% of a GPU rank's open).
   */
  private putAttrs(section: AttrSection, attrs: Attrs): void {
    const { numeric } = section;
    if (numeric.length === 0) return;
    let k = 0;
    for (const key in attrs) {
      if (!Object.hasOwn(attrs, key)) continue;
      const value = attrs[key];
      if (numeric[k++]) this.numbers.push(value as number);
      else this.pushRef(value);
    }
  }

  /**
   * The values of attrs kept as columns, whose shape is `section`: the numbers, then the other
   * values, each in key order. The same numbers and refs putAttrs gives for an object of them:
   * numbers and refs are kept apart, each in key order.
   */
  private putColumns(section: AttrSection, columns: AttrColumns): void {
    this.numbers.pushFrom(columns.numbers, columns.numbersAt, section.numberCount);
    const { refs, refsAt } = columns;
    const refCount = section.keys.length - section.numberCount;
    for (let k = 0; k < refCount; k++) this.pushRef(refs[refsAt + k]);
  }

  /**
   * The shape of a span whose start attrs are columns of shape `first` (AttrColumns) and whose
   * end attrs are `second`: as shapeOf gives for an object of those columns, found by the
   * columns' shape itself rather than by reading an object's keys.
   */
  private shapeOfColumns(name: string, first: AttrShape, second: Attrs): ItemShape {
    let section = this.columnSections.get(first);
    if (section === undefined) {
      section = sectionOfShape(first.keys, first.numeric);
      this.columnSections.set(first, section);
    }
    const recent = this.lastShapes.get(name) ?? NO_SHAPES;
    for (let k = 0; k < recent.length; k++) {
      const last = recent[k];
      if (
        last.sections.length === 2 &&
        sameSection(last.sections[0], section) &&
        fitsAttrShape(last.sections[1], second)
      ) {
        if (k > 0) recent.unshift(...recent.splice(k, 1));
        return last;
      }
    }
    return this.shapeOfSections(name, [section, sectionOf(second)]);
  }

  private shapeOf(name: string, first: Attrs, second: Attrs | null): ItemShape {
    // (a name's list is made by shapeOfSections, with its first shape)
    const recent = this.lastShapes.get(name) ?? NO_SHAPES;
    for (let k = 0; k < recent.length; k++) {
      const last = recent[k];
      if (
        last.sections.length === (second === null ? 1 : 2) &&
        fitsAttrShape(last.sections[0], first) &&
        (second === null || fitsAttrShape(last.sections[1], second))
      ) {
        if (k > 0) recent.unshift(...recent.splice(k, 1));
        return last;
      }
    }
    return this.shapeOfSections(
      name,
      second === null ? [sectionOf(first)] : [sectionOf(first), sectionOf(second)],
    );
  }

  /** The shape of `sections` (one per shape: items of every name share it), now `name`'s latest. */
  private shapeOfSections(name: string, sections: AttrSection[]): ItemShape {
    let recent = this.lastShapes.get(name);
    if (recent === undefined) this.lastShapes.set(name, (recent = []));
    const key = JSON.stringify(sections);
    let shape = this.shapes.get(key);
    if (shape === undefined) {
      const numberStarts: number[] = [];
      const refStarts: number[] = [];
      let numberCount = 0;
      let refCount = 0;
      for (const section of sections) {
        numberStarts.push(numberCount);
        refStarts.push(refCount);
        numberCount += section.numberCount;
        refCount += section.keys.length - section.numberCount;
      }
      shape = { sections, numberCount, refCount, numberStarts, refStarts };
      this.shapes.set(key, shape);
    }
    recent.unshift(shape);
    if (recent.length > RECENT_SHAPES) recent.pop();
    return shape;
  }
}

/**
 * Shapes kept per item name to try before making one from an item's keys: a span's start and end
 * attrs differ from one sample to the next, a request-metrics record's with its finish reason
 */
const RECENT_SHAPES = 8;

/** the recent shapes of a name met for the first time */
const NO_SHAPES: ItemShape[] = [];

/** Values per chunk: a MiB of numbers (8 bytes), or of refs (4 bytes). */
const NUMBER_CHUNK = 1 << 17;
const REF_CHUNK = 1 << 18;

/**
 * Rows' numbers (or refs) side by side in shared chunks, each row's from a place in its chunk:
 * an array of its own per row (or a view) cost 96 to 180 bytes of heap each, and a native
 * allocation. A chunk lives as long as a row in it; a row of more than a quarter of a chunk
 * gets an array of its own.
 */
class SharedChunks<T extends Float64Array | Int32Array> {
  private chunk: T;
  private used = 0;

  constructor(
    private readonly make: new (length: number) => T,
    private readonly size: number,
  ) {
    this.chunk = new make(0);
  }

  /** The chunk being filled and a copy of its used part, when that is shorter; null else. */
  cut(): { from: T; to: T } | null {
    if (this.used === 0 || this.used === this.chunk.length) return null;
    return { from: this.chunk, to: this.chunk.slice(0, this.used) as T };
  }

  /** `own`: `values` is the row's alone (not a view of a buffer used again) */
  put(values: T, own = false): { chunk: T; first: number } {
    const n = values.length;
    if (n > this.size / 4) {
      // an array that is the row's own (Scratch.take of a row in blocks) is kept as it is
      if (own) return { chunk: values, first: 0 };
      const copy = new this.make(n);
      copy.set(values);
      return { chunk: copy, first: 0 };
    }
    if (this.used + n > this.chunk.length) {
      // from a small chunk, doubling up to `size`: a tiny file's rows take kilobytes, not
      // 2 MiB (what a folder of thousands of tiny files held open, each)
      this.chunk = new this.make(Math.max(n, Math.min(this.size, this.chunk.length * 2 || 64)));
      this.used = 0;
    }
    const first = this.used;
    this.chunk.set(values, first);
    this.used += n;
    return { chunk: this.chunk, first };
  }
}

/**
 * Values past which a scratch buffer stops growing: a longer row fills blocks of this many
 * (8 MB of numbers) and is let go of once packed.
 */
const LARGE_SCRATCH = 1 << 20;

/**
 * A row's numbers (or numbered refs) as they are packed: one buffer, grown by doubling and kept
 * for the next row, rather than a new array per row (a GPU rank's row of a million numbers grew
 * its array, on the collector's heap, a dozen times over). Past LARGE_SCRATCH a row goes on in
 * blocks, never copied until the row's one array of its exact length is made: grown by
 * doubling, a GPU rank's 100 MB of numbers was held up to three times over (the buffer before
 * its last doubling, the one after it, and the row's copy), the largest step of an open's peak.
 */
class Scratch<T extends Float64Array | Int32Array> {
  private buffer: T;
  /** the full blocks of a row past LARGE_SCRATCH, before `buffer` */
  private blocks: T[] = [];
  /** values in `blocks` */
  private inBlocks = 0;
  /** values in `buffer` */
  private used = 0;

  constructor(private readonly make: new (length: number) => T) {
    this.buffer = new make(1024);
  }

  /** the values pushed since `clear` */
  get length(): number {
    return this.inBlocks + this.used;
  }

  clear(): void {
    this.blocks = [];
    this.inBlocks = 0;
    this.used = 0;
  }

  push(value: number): void {
    if (this.used === this.buffer.length) this.grow();
    this.buffer[this.used++] = value;
  }

  /** `count` values of `from` from `at` */
  pushFrom(from: Float64Array | Int32Array, at: number, count: number): void {
    for (let k = 0; k < count; k++) this.push(from[at + k]);
  }

  push3(a: number, b: number, c: number): void {
    this.push(a);
    this.push(b);
    this.push(c);
  }

  /**
   * Lets go of a buffer grown to LARGE_SCRATCH (a GPU rank's row: tens of MB), so that it is
   * not held beside the rows to the end of the open; the next long row grows one again.
   */
  shrink(): void {
    if (this.buffer.length >= LARGE_SCRATCH) this.buffer = new this.make(1024);
    this.clear();
  }

  /**
   * The values pushed since `clear`: a view valid until the next push (`own` false), or, for a
   * row that went on in blocks, an array of their own (`own`), which is then no longer kept.
   */
  take(): { values: T; own: boolean } {
    if (this.blocks.length === 0)
      return { values: this.buffer.subarray(0, this.used) as T, own: false };
    const all = new this.make(this.length);
    let at = 0;
    for (const block of this.blocks) {
      all.set(block, at);
      at += block.length;
    }
    all.set(this.buffer.subarray(0, this.used), at);
    this.shrink();
    return { values: all, own: true };
  }

  private grow(): void {
    if (this.buffer.length < LARGE_SCRATCH) {
      this.buffer = grownColumn(this.buffer, 0, 2);
      return;
    }
    this.blocks.push(this.buffer);
    this.inBlocks += this.buffer.length;
    this.buffer = new this.make(LARGE_SCRATCH);
    this.used = 0;
  }
}

/** Whether two sections have the same keys in the same order, numbers at the same keys. */
function sameSection(a: AttrSection, b: AttrSection): boolean {
  if (a === b) return true;
  if (a.keys.length !== b.keys.length) return false;
  for (let k = 0; k < a.keys.length; k++)
    if (a.keys[k] !== b.keys[k] || a.numeric[k] !== b.numeric[k]) return false;
  return true;
}

function sectionOf(attrs: Attrs): AttrSection {
  const keys = Object.keys(attrs);
  return sectionOfShape(
    keys,
    keys.map((key) => typeof attrs[key] === 'number'),
  );
}

function sectionOfShape(
  shapeKeys: readonly string[],
  shapeNumeric: readonly boolean[],
): AttrSection {
  const keys = [...shapeKeys];
  const numeric = [...shapeNumeric];
  let numbers = 0;
  let refs = 0;
  const slots = numeric.map((isNumber) => (isNumber ? numbers++ : refs++));
  return { keys, numeric, numberCount: numbers, slots };
}

/**
 * Which extras (OTLP and Chrome specifics) the item has, a bit per EXTRA_KEYS entry: kept as
 * that set's key list and the values, no object per item (a million OTLP spans each had one).
 */
function extrasMask(item: RowItem): number {
  // each key named, not read through EXTRA_KEYS: a load by a key that varies is a slow lookup
  // each time (a loop over the keys was 5% of a GPU rank's open). The bits follow EXTRA_KEYS'
  // order, here and in pushExtras: packed-items.test.ts's extras test fails when they do not
  return (
    (item.service === undefined ? 0 : 1) |
    (item.otel === undefined ? 0 : 2) |
    (item.lane_label === undefined ? 0 : 4) |
    (item.error === undefined ? 0 : 8) |
    (item.missing_parent === undefined ? 0 : 16) |
    (item.links === undefined ? 0 : 32) |
    (item.category === undefined ? 0 : 64)
  );
}

/** The item's extras in EXTRA_KEYS order, those `mask` names, each key named (extrasMask). */
function pushExtras(
  item: RowItem,
  mask: number,
  push: (value: unknown) => void,
  pushLinks: (links: unknown) => void,
): void {
  if (mask & 1) push(item.service);
  if (mask & 2) push(item.otel);
  if (mask & 4) push(item.lane_label);
  if (mask & 8) push(item.error);
  if (mask & 16) push(item.missing_parent);
  if (mask & 32) pushLinks(item.links);
  if (mask & 64) push(item.category);
}

/** A link of exactly LINK_KEYS, in that order, of the types they are (no attrs). */
function isPlainLink(link: unknown): boolean {
  if (typeof link !== 'object' || link === null || Object.getPrototypeOf(link) !== Object.prototype)
    return false;
  let k = 0;
  for (const key in link) if (key !== LINK_KEYS[k++]) return false;
  const { trace_id, span_id, dangling } = link as Record<string, unknown>;
  return (
    k === LINK_KEYS.length &&
    typeof trace_id === 'string' &&
    typeof span_id === 'string' &&
    typeof dangling === 'boolean'
  );
}

/** The items of a packed row, as the format built them (fresh objects each call). */
export function unpackItems(packed: PackedItems): RowItem[] {
  const items: RowItem[] = new Array(packed.count);
  const cursor = new PackedItemCursor().reset(packed);
  for (let i = 0; cursor.next(); i++) items[i] = cursor.item();
  return items;
}

/**
 * One item of a packed row (its index among the row's items), or undefined: the items before
 * it are skipped in place (a Chrome process row can hold a million items; a click on one
 * unpacks that one).
 */
export function unpackItem(packed: PackedItems, index: number): RowItem | undefined {
  if (!Number.isInteger(index) || index < 0 || index >= packed.count) return undefined;
  const cursor = new PackedItemCursor().reset(packed);
  for (let k = 0; k <= index; k++) cursor.next();
  return cursor.item();
}

/**
 * The items of a packed row one after another without making them (the store's columns are
 * filled from it): what every item has beside its attrs, read in place.
 */
export class PackedItemCursor {
  state: (typeof STATES)[number] = 'closed_span';
  /** start_ts of a span, ts of a point */
  start = 0;
  /** display_end_ts of a span, ts of a point */
  displayEnd = 0;
  lane = 0;
  depth = 0;
  name = '';
  /**
   * The item's span id and parent span id as kept: a number of the file's SpanIds (NO_ID: none)
   * or, in a row too long to number its ids, the ids themselves. Within a row, equal ids are
   * kept alike: a map by these finds a span's children.
   */
  spanIdRef: unknown = NO_ID;
  parentSpanIdRef: unknown = NO_ID;
  private parentName: string | null = null;
  private table: ItemTable | null = null;
  /** the table's values where the row keeps refs to them (not a long row: see the layout) */
  private values: readonly unknown[] | null = null;
  /** end_ts of a closed span (read only for those) */
  endTs = NaN;
  /** the attempt (null where the item has none) */
  attempt: number | null = null;
  pdRole: PdRole | null = null;
  /** the keys of the item's OTLP and Chrome specifics (error, links, ...), and where they are */
  private extraKeys: readonly ExtraKey[] | null = null;
  private extraF = 0;
  private packed: PackedItems | null = null;
  private index = 0;
  private n = 0;
  private f = 0;
  private shape: ItemShape | null = null;
  /** where the item's attr numbers, attr references and PD numbers / names begin */
  private attrN = 0;
  private attrF = 0;
  private pdN = 0;
  private pdF = 0;

  get spanId(): string | null {
    return this.idText(this.spanIdRef);
  }

  get parentSpanId(): string | null {
    return this.idText(this.parentSpanIdRef);
  }

  /** Whether the item has a span id that is not empty, without making its text. */
  get hasSpanId(): boolean {
    const ref = this.spanIdRef;
    return typeof ref === 'number' ? ref >= 0 && this.table!.ids.isTruthy(ref) : Boolean(ref);
  }

  private idText(ref: unknown): string | null {
    if (typeof ref !== 'number') return ref as string | null;
    if (ref >= 0) return this.table!.ids.get(ref) as string | null;
    return ref === UNDEFINED_ID ? (undefined as unknown as null) : null;
  }

  get isSpan(): boolean {
    return this.state === 'closed_span' || this.state === 'open_span';
  }

  /** the value in ref slot `at`: through the table's values where the row keeps refs */
  private value(at: number): unknown {
    const refs = this.packed!.refs;
    return this.values === null ? refs[at] : this.values[refs[at] as number];
  }

  /** where the links list of the extras slot `at` starts in LinkLists, or -1 (a value) */
  private linksAt(at: number): number {
    if (this.values === null) return -1;
    const slot = this.packed!.refs[at] as number;
    return slot < 0 ? -3 - slot : -1;
  }

  /** an extra's value: a links list kept in LinkLists made again (fresh objects each call) */
  private extraValue(at: number): unknown {
    const from = this.linksAt(at);
    if (from < 0) return this.value(at);
    const table = this.table!;
    const { data } = table.links;
    const links: { trace_id: string; span_id: string; dangling: boolean }[] = [];
    for (let k = from + 1, end = from + 1 + 3 * data[from]; k < end; k += 3) {
      links.push({
        trace_id: table.values[data[k]] as string,
        span_id: table.ids.get(data[k + 1]) as string,
        dangling: data[k + 2] === 1,
      });
    }
    return links;
  }

  /** The item last read, made as the format built it (fresh objects each call). */
  item(): RowItem {
    const { numbers, refs } = this.packed!;
    const values = this.values;
    const shape = this.shape!;
    const state = this.state;
    const parentName = this.parentName;
    const at = { n: this.attrN, f: this.attrF };
    let item: RowItem;
    if (state === 'closed_span' || state === 'open_span') {
      const span: SpanItem = {
        type: 'span',
        state,
        name: this.name,
        start_ts: this.start,
        end_ts: state === 'open_span' ? null : this.endTs,
        display_end_ts: this.displayEnd,
        attempt: this.attempt,
        span_id: this.spanId,
        parent_span_id: this.parentSpanId,
        parent_span_name: parentName,
        lane: this.lane,
        depth: this.depth,
        attrs: { start_attrs: NO_ATTRS, end_attrs: NO_ATTRS },
      };
      readAttrs(shape.sections[0], numbers, refs, values, at, span.attrs, 'start_attrs');
      readAttrs(shape.sections[1], numbers, refs, values, at, span.attrs, 'end_attrs');
      if (this.pdRole) {
        const phases: PdPhase[] = [];
        for (let p = 0; p < this.pdPhaseCount; p++)
          phases.push({ phase: this.pdPhaseName(p), durationSec: this.pdPhaseDuration(p) });
        span.pd = { role: this.pdRole, phases, parentDurationSec: numbers[this.pdN] };
      }
      item = span;
    } else {
      const point: PointItem = {
        type: state === 'point_event' ? 'event' : 'orphan_end',
        state,
        name: this.name,
        ts: this.start,
        attempt: this.attempt,
        span_id: this.spanId,
        parent_span_id: this.parentSpanId,
        parent_span_name: parentName,
        lane: this.lane,
        depth: this.depth,
        attrs: NO_ATTRS,
      };
      readAttrs(shape.sections[0], numbers, refs, values, at, point, 'attrs');
      item = point;
    }
    const keys = this.extraKeys;
    if (keys !== null) {
      const extras = item as unknown as Record<ExtraKey, unknown>;
      for (let k = 0; k < keys.length; k++) extras[keys[k]] = this.extraValue(this.extraF + k);
    }
    return item;
  }

  /** One of the item's OTLP and Chrome specifics, undefined when it has none. */
  extra<K extends ExtraKey>(key: K): ItemExtras[K] | undefined {
    const k = this.extraKeys?.indexOf(key) ?? -1;
    return k < 0 ? undefined : (this.extraValue(this.extraF + k) as ItemExtras[K]);
  }

  /** How many links the item has, without making them. */
  linkCount(): number {
    const k = this.extraKeys?.indexOf('links') ?? -1;
    if (k < 0) return 0;
    const at = this.linksAt(this.extraF + k);
    if (at >= 0) return this.table!.links.data[at];
    const links = this.value(this.extraF + k);
    return Array.isArray(links) ? links.length : 0;
  }

  /** How many attrs sections the item has: 2 for a span (start, end), 1 for a point. */
  get sectionCount(): number {
    return this.shape!.sections.length;
  }

  /** The keys of one attrs section, in order. */
  sectionKeys(section: number): readonly string[] {
    return this.shape!.sections[section].keys;
  }

  /**
   * The value of the k-th key of an attrs section (sectionKeys order), found at once from the
   * shape (a count of the keys before it made the text of an item of n attrs take n^2 steps).
   */
  attrAt(section: number, k: number): AttrValue {
    const shape = this.shape!;
    const { numeric, slots } = shape.sections[section];
    return (
      numeric[k]
        ? this.packed!.numbers[this.attrN + shape.numberStarts[section] + slots[k]]
        : this.value(this.attrF + shape.refStarts[section] + slots[k])
    ) as AttrValue;
  }

  /** The value of `key` in an attrs section, undefined where the item has no such attr. */
  attr(section: number, key: string): AttrValue | undefined {
    const k = this.shape!.sections[section]?.keys.indexOf(key) ?? -1;
    return k < 0 ? undefined : this.attrAt(section, k);
  }

  /** How many PD phases the item's PD view has (0 without one). */
  get pdPhaseCount(): number {
    return this.pdRole ? this.packed!.numbers[this.pdN + 1] : 0;
  }

  /** The duration of the request a PD view's phases divide (its parentDurationSec). */
  get pdParentDuration(): number {
    return this.packed!.numbers[this.pdN];
  }

  pdPhaseName(k: number): string {
    return this.value(this.pdF + k) as string;
  }

  pdPhaseDuration(k: number): number {
    return this.packed!.numbers[this.pdN + 2 + k];
  }

  /** Starts over on `packed`: `next()` then reads its first item. */
  reset(packed: PackedItems): this {
    this.packed = packed;
    this.table = packed.table as ItemTable;
    this.index = 0;
    this.n = packed.first;
    this.f = packed.refsFirst;
    this.values = packed.refs instanceof Int32Array ? this.table.values : null;
    return this;
  }

  /** How many items were read: the index of the item next() reads. */
  get position(): number {
    return this.index;
  }

  /** Where the item next() reads begins in the row's numbers and refs (for `seek`). */
  offsets(): [numbers: number, refs: number] {
    return [this.n, this.f];
  }

  /**
   * Goes back or ahead to item `index` of `packed`, which begins at the offsets `offsets()` gave
   * there: next() then reads it. A row of a million items is read in the parts asked for.
   */
  seek(packed: PackedItems, index: number, numbersAt: number, refsAt: number): this {
    this.reset(packed);
    this.index = index;
    this.n = numbersAt;
    this.f = refsAt;
    return this;
  }

  /** Reads the next item; false after the last. */
  next(): boolean {
    const packed = this.packed!;
    if (this.index >= packed.count) return false;
    this.index++;
    const { numbers, refs } = packed;
    let n = this.n;
    let f = this.f;
    const word = numbers[n];
    // the low 32 bits: a COMPACT code's flags, attempt and lane; any other code is its flags
    const low = word >>> 0;
    const code = low & 0xff;
    const state = STATES[code & 3];
    this.state = state;
    const values = this.values;
    const head = this.table!.heads[refs[f] as number];
    this.name = head.name;
    this.parentName = (values === null ? refs[f + 1] : values[refs[f + 1] as number]) as
      string | null;
    this.spanIdRef = refs[f + 2];
    this.parentSpanIdRef = refs[f + 3];
    const shape = head.shape;
    this.shape = shape;
    this.attrF = f + 4;
    f += 4 + shape.refCount;
    const start = numbers[n + 1];
    this.start = start;
    n += 2;
    const isSpan = state === 'closed_span' || state === 'open_span';
    if (state === 'closed_span') this.endTs = numbers[n++];
    else this.endTs = NaN;
    if (!isSpan) this.displayEnd = start;
    else if (code & SAME_END) this.displayEnd = this.endTs;
    else this.displayEnd = numbers[n++];
    let attempt: number;
    if (code & COMPACT) {
      attempt = (low >>> 8) & 0xff;
      this.lane = low >>> 16;
      this.depth = (word - low) / HIGH;
    } else {
      attempt = numbers[n];
      this.lane = numbers[n + 1];
      this.depth = numbers[n + 2];
      n += 3;
    }
    this.attempt = code & NULL_ATTEMPT ? null : attempt;
    this.attrN = n;
    n += shape.numberCount;
    if (isSpan) {
      this.pdRole = PD_ROLES[(code >> 2) & 3];
      if (this.pdRole) {
        const phases = numbers[n + 1];
        this.pdN = n;
        this.pdF = f;
        n += 2 + phases;
        f += phases;
      }
    } else this.pdRole = null;
    if (code & HAS_EXTRAS) {
      const keys = EXTRA_KEY_LISTS[refs[f] as number];
      this.extraKeys = keys;
      this.extraF = f + 1;
      f += 1 + keys.length;
    } else this.extraKeys = null;
    this.n = n;
    this.f = f;
    return true;
  }
}

/** Reads one attrs section into `holder[key]` (left the shared empty object when it has none). */
function readAttrs<K extends string>(
  section: AttrSection,
  numbers: Float64Array,
  refs: Int32Array | readonly unknown[],
  values: readonly unknown[] | null,
  at: { n: number; f: number },
  holder: { [key in K]: Attrs },
  key: K,
): void {
  const { keys, numeric } = section;
  if (keys.length === 0) return;
  const attrs: Record<string, AttrValue> = {};
  for (let k = 0; k < keys.length; k++) {
    const value = (
      numeric[k] ? numbers[at.n++] : values === null ? refs[at.f++] : values[refs[at.f++] as number]
    ) as AttrValue;
    // a "__proto__" key from a file stays a plain own key
    if (keys[k] === '__proto__')
      Object.defineProperty(attrs, keys[k], {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else attrs[keys[k]] = value;
  }
  holder[key] = attrs;
}

/** A packed row with its items again, in the row's key order. */
export function unpackRow(row: PackedRow): Row {
  const { packed, ...fields } = row;
  return Object.assign(fields, { items: unpackItems(packed) });
}

/** Rows of one file, packed (formats that build their rows all at once). */
export function packRows(rows: readonly Row[]): PackedRow[] {
  return rows.map(rowPacker());
}

/** Packs rows one at a time as they are built, sharing their shapes as packRows does. */
export function rowPacker(): (row: Row) => PackedRow {
  const packer = new ItemPacker();
  return (row) => packer.packRow(row);
}

/** One row packed on its own (its shapes shared with no other row). */
export function packRow(row: Row): PackedRow {
  return new ItemPacker().packRow(row);
}

/**
 * Rows packed on another thread and structured-cloned here (a dump read by two threads): their
 * table's span ids get their class back. Their tables stay their own: each row reads through
 * its own, so rows of two packers live side by side in one file.
 */
export function revivePackedRows(rows: readonly PackedRow[]): void {
  const tables = new Set(rows.map((row) => row.packed.table as ItemTable));
  for (const table of tables) SpanIds.revive(table.ids);
}
