import { sourceText, type AttrValue, type PackedRow } from '../model/row';
import { PackedItemCursor } from '../rows/packed-items';
import type { TraceStore } from './build-store';
import { grownColumn } from '../model/grown-column';
import { RowTrigrams, trigramsOf } from './search-trigrams';

/** Per store, the rows' search texts built so far (rows [0, texts.length)). */
const cache = new WeakMap<TraceStore, SearchTextColumn>();

/**
 * Per row, one lowercase text of everything a search box matches: sample index, source,
 * status, label, trace id, span names and attribute values. Built after opening, a slice at a
 * time while the worker is idle (buildSearchTextSlice); a search before then finishes it.
 */
export function searchTextsOf(store: TraceStore): SearchTextColumn {
  return buildSearchTextSlice(store, Infinity);
}

/**
 * Builds the search texts of up to `count` more rows (searchTextReady says when every row has
 * one), and gives the store's texts so far. Lets the worker build the index between calls
 * instead of on the first search (seconds at 100k rows).
 */
export function buildSearchTextSlice(store: TraceStore, count: number): SearchTextColumn {
  let texts = cache.get(store);
  if (!texts) {
    texts = new SearchTextColumn();
    cache.set(store, texts);
  }
  const end = Math.min(store.rows.length, texts.length + count);
  for (let r = texts.length; r < end; r++) texts.add(store.rows[r]);
  return texts;
}

/**
 * Search texts made while a file is read, as its rows grow (rows are added at the end, each
 * kept as it is): the stores built from those rows (previews, then the whole file) start
 * with them, so the file is searchable as soon as it is read instead of seconds later.
 */
export class SearchTextsWhileReading {
  private rows: readonly PackedRow[] | null = null;
  private texts = new SearchTextColumn();

  /** whether the format gave rows while it read (formats that build rows at the end do not) */
  get started(): boolean {
    return this.rows !== null;
  }

  /** texts for the rows added since the last call (a different list starts over) */
  extend(rows: readonly PackedRow[]): void {
    if (rows !== this.rows || rows.length < this.texts.length) {
      this.rows = rows;
      this.texts = new SearchTextColumn();
    }
    for (let r = this.texts.length; r < rows.length; r++) this.texts.add(rows[r]);
  }

  /** gives `store` the texts made so far of its rows (the same Row objects, in order) */
  seed(store: TraceStore): void {
    if (cache.has(store)) return;
    let n = Math.min(this.texts.length, store.rows.length);
    // only where the store's rows are the rows these texts were made from
    if (n > 0 && (store.rows[0] !== this.rows![0] || store.rows[n - 1] !== this.rows![n - 1]))
      n = 0;
    cache.set(store, this.texts.prefix(n));
  }
}

/** Whether every row of the store has its search text. */
export function searchTextReady(store: TraceStore): boolean {
  return (cache.get(store)?.length ?? -1) === store.rows.length;
}

/**
 * Gives up to `count` more rows their runs of three bytes (search-trigrams.ts), once every row
 * has its text: the warm-up's steps after the texts'. A search before then searches the texts
 * of the rows without them.
 */
export function buildSearchTrigramSlice(store: TraceStore, count: number): void {
  const texts = cache.get(store);
  if (texts && searchTextReady(store)) texts.buildTrigrams(count);
}

/** Whether every row of the store has its search text and its runs of three bytes. */
export function searchTrigramsReady(store: TraceStore): boolean {
  return searchTextReady(store) && cache.get(store)!.trigramsReady;
}

/** Rows asked first whether they may hold a needle: when most may, the rest are not asked. */
const FIRST_ROWS = 256;

/** Bytes of text a step of buildTrigrams reads: tens of milliseconds, what a call waits. */
const TRIGRAM_BYTES = 8 * 1024 * 1024;

/** Bytes a chunk of texts holds (a longer row text gets a chunk of its own size). */
const CHUNK_BYTES = 4 * 1024 * 1024;
const FIRST_CHUNK_BYTES = 4 * 1024;

/**
 * Every row's search text as UTF-8 bytes, rows end to end in chunks, each text ended by SEP
 * (which no search input holds, so no match runs from one row into the next). Bytes, not a
 * string per row: 100k rows' texts (about 75 MB) then sit outside the collector's heap, which
 * copied and marked them again and again while the file was read (a tenth of the open), and a
 * search is the engine's byte search over a chunk instead of a call per row. A prefix of the
 * rows (`prefix`) shares the chunks: texts are only ever added after the last row.
 */
export class SearchTextColumn {
  private chunks: Uint8Array[] = [];
  /** per chunk, the bytes its texts use (a chunk before the last never changes again) */
  private chunkUsed: number[] = [];
  /** bytes used in the last chunk */
  private used = 0;
  /** per row: its chunk, and where its text starts and ends in it (SEP excluded) */
  private rowChunk = new Int32Array(256);
  private rowStart = new Int32Array(256);
  private rowEnd = new Int32Array(256);
  length = 0;

  /** `chunkBytes`: the size of each chunk of texts (tests make it small) */
  constructor(private readonly chunkBytes = CHUNK_BYTES) {}

  /** Adds the row's text after the last row's. */
  add(row: PackedRow): void {
    const text = rowText(row);
    const size = text.size;
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.used + size + 1 > chunk.length) {
      // chunks grow from 4 KiB to chunkBytes: a tiny file's texts take a small chunk, not
      // 4 MiB (a folder of 20,000 tiny files held open took 80 GB of address space for them)
      const grown = Math.min(this.chunkBytes, FIRST_CHUNK_BYTES * 2 ** this.chunks.length);
      chunk = new Uint8Array(Math.max(grown, size + 1));
      this.chunks.push(chunk);
      this.chunkUsed.push(0);
      this.used = 0;
    }
    chunk.set(text.bytes.subarray(0, size), this.used);
    const r = this.length;
    if (r === this.rowStart.length) this.growRows();
    this.rowChunk[r] = this.chunks.length - 1;
    this.rowStart[r] = this.used;
    this.rowEnd[r] = this.used + size;
    chunk[this.used + size] = SEP_BYTE;
    this.used += size + 1;
    this.chunkUsed[this.chunks.length - 1] = this.used;
    this.length = r + 1;
  }

  /** Rows [0, trigrams.length) have their runs of three bytes (made after the texts). */
  private trigrams: RowTrigrams | null = null;

  /** Whether every row has its runs of three bytes. */
  get trigramsReady(): boolean {
    return this.trigrams !== null && this.trigrams.length === this.length;
  }

  /**
   * Gives up to `count` more rows their runs of three bytes, reading at most about `bytes` of
   * their texts (a row longer than that is read over several calls).
   */
  buildTrigrams(count: number, bytes = TRIGRAM_BYTES): void {
    this.trigrams ??= new RowTrigrams();
    const trigrams = this.trigrams;
    const end = Math.min(this.length, trigrams.length + count);
    let budget = bytes;
    for (let r = trigrams.length; r < end && budget > 0; r = trigrams.length) {
      const start = this.rowStart[r];
      const stop = this.rowEnd[r];
      if (!trigrams.add(this.chunks[this.rowChunk[r]], start, stop, budget)) return;
      budget -= stop - start;
    }
  }

  /** The first `n` rows' texts, sharing these bytes. */
  prefix(n: number): SearchTextColumn {
    const view = new SearchTextColumn(this.chunkBytes);
    view.chunks = this.chunks;
    view.chunkUsed = this.chunkUsed;
    view.rowChunk = this.rowChunk;
    view.rowStart = this.rowStart;
    view.rowEnd = this.rowEnd;
    view.length = Math.min(n, this.length);
    return view;
  }

  /** Row r's text (what the search matches in), as a string. */
  text(r: number): string {
    const chunk = this.chunks[this.rowChunk[r]];
    return decoder.decode(chunk.subarray(this.rowStart[r], this.rowEnd[r]));
  }

  /**
   * Sets out[r] = 1 for each row whose text holds `needle` (lowercase already); with `only`,
   * for those rows among the ones it marks. Few rows to test are tested one by one; else every
   * chunk is searched through, a row at most once.
   */
  matchInto(needle: string, out: Uint8Array, only: Uint8Array | null): void {
    const pattern = Buffer.from(needle, 'utf8');
    const n = this.length;
    if (pattern.length === 0 || n === 0) return;
    // a needle holding SEP could run on from one row into the next: tested row by row
    let rowByRow = pattern.includes(SEP_BYTE);
    if (only !== null && !rowByRow) {
      let count = 0;
      for (let r = 0; r < n; r++) count += only[r];
      rowByRow = count * 8 < n;
    }
    // rows whose runs of three bytes rule the needle out are left out: a rare needle's search
    // reads a few rows' texts instead of every row's. Row by row costs up to twice a row's
    // share of the pass through the chunks (a view and a call a row; at 10k rows, 37.5% of the
    // rows took about the pass's time): so only while under a quarter of the rows may hold it
    if (!rowByRow && this.trigrams !== null && pattern.length >= 3) {
      const may = this.rowsThatMayHold(trigramsOf(pattern), only, Math.ceil(n / 4));
      if (may !== null) {
        only = may;
        rowByRow = true;
      }
    }
    if (rowByRow) {
      for (let r = 0; r < n; r++)
        if ((only === null || only[r]) && this.rowHolds(r, pattern)) out[r] = 1;
      return;
    }
    const lastChunk = this.rowChunk[n - 1];
    let r = 0;
    for (let c = 0; c <= lastChunk; c++) {
      const chunk = this.chunks[c];
      const end = c === lastChunk ? this.rowEnd[n - 1] : this.chunkUsed[c];
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, end);
      for (let at = bytes.indexOf(pattern, 0); at >= 0;) {
        // the row whose text the match is in: rows of a chunk are in order
        while (this.rowChunk[r] < c || this.rowEnd[r] < at + pattern.length) r++;
        if (only === null || only[r]) out[r] = 1;
        at = bytes.indexOf(pattern, this.rowEnd[r] + 1);
      }
    }
  }

  /**
   * The rows among `only` (all without) whose runs of three bytes may hold the needle's
   * (`runs`), the rest cannot hold it; null once `most` rows may (then they are not worth
   * telling apart).
   */
  private rowsThatMayHold(
    runs: Int32Array,
    only: Uint8Array | null,
    most: number,
  ): Uint8Array | null {
    const n = this.length;
    const trigrams = this.trigrams!;
    const may = new Uint8Array(n);
    let count = 0;
    for (let r = 0; r < n; r++) {
      if ((only === null || only[r]) && trigrams.mayHold(r, runs)) {
        may[r] = 1;
        if (++count >= most) return null;
      }
      // many of the first rows may: many rows will (a needle most rows hold is found sooner
      // through the chunks)
      if (r === FIRST_ROWS && count * 4 > FIRST_ROWS) return null;
    }
    return may;
  }

  /** Whether row r's text holds `pattern`: the same byte search, over that row alone. */
  private rowHolds(r: number, pattern: Buffer): boolean {
    const chunk = this.chunks[this.rowChunk[r]];
    const start = this.rowStart[r];
    const text = Buffer.from(chunk.buffer, chunk.byteOffset + start, this.rowEnd[r] - start);
    return text.indexOf(pattern) >= 0;
  }

  private growRows(): void {
    this.rowChunk = grownColumn(this.rowChunk, 0, 2);
    this.rowStart = grownColumn(this.rowStart, 0, 2);
    this.rowEnd = grownColumn(this.rowEnd, 0, 2);
  }
}

const decoder = new TextDecoder();

/** Values up to this long are tried as ASCII first (TextBytes.put). */
const ASCII_RUN = 64;

/** Row text bytes made in place (reused for every row: only its copy in a chunk is kept). */
class TextBytes {
  bytes = Buffer.alloc(4096);
  size = 0;

  /** `text` lowercased (Unicode's rules, by the engine), as UTF-8 */
  put(text: string): void {
    // most values are short ASCII (keys, numbers, names, ids): lowercased byte by byte here,
    // without a lowercased copy and a native call each (a second per 100k rows)
    const n = text.length;
    if (n <= ASCII_RUN) {
      this.room(n);
      const bytes = this.bytes;
      const at = this.size;
      let i = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) break;
        bytes[at + i] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
      }
      if (i === n) {
        this.size = at + n;
        return;
      }
    }
    const lower = text.toLowerCase();
    // UTF-8 takes at most 3 bytes per UTF-16 unit; a long value is measured instead, so a
    // hostile 100 MB attr does not make room for 300 MB
    this.room(lower.length < 65_536 ? lower.length * 3 : Buffer.byteLength(lower));
    // Buffer.write encodes natively, in place
    this.size += this.bytes.write(lower, this.size);
  }

  /** one ASCII byte (a separator) */
  byte(b: number): void {
    this.room(1);
    this.bytes[this.size++] = b;
  }

  private room(n: number): void {
    if (this.size + n <= this.bytes.length) return;
    const bigger = Buffer.alloc(Math.max(this.bytes.length * 2, this.size + n));
    this.bytes.copy(bigger, 0, 0, this.size);
    this.bytes = bigger;
  }
}

const out = new TextBytes();

/**
 * The row's text in `out` (the same bytes object each call): the parts joined by SEP, each
 * attribute section as `key=value` pairs joined by spaces, span names once each, lowercased.
 */
function rowText(row: PackedRow): TextBytes {
  out.size = 0;
  const index = String(row.sample_index);
  out.byte(HASH_BYTE);
  out.put(index);
  out.byte(SEP_BYTE);
  out.put(index);
  out.byte(SEP_BYTE);
  out.put(sourceText(row.source) ?? '');
  out.byte(SEP_BYTE);
  out.put(row.status ?? '');
  out.byte(SEP_BYTE);
  putFlat(row.label);
  out.byte(SEP_BYTE);
  out.put(row.trace_id ?? '');
  const names = new Set<string>();
  // read in place: no item objects are made for the texts of 100k rows
  const item = cursor.reset(row.packed);
  while (item.next()) {
    names.add(item.name);
    for (let s = 0; s < item.sectionCount; s++) {
      out.byte(SEP_BYTE);
      const keys = item.sectionKeys(s);
      for (let k = 0; k < keys.length; k++) {
        if (k > 0) out.byte(SPACE_BYTE);
        out.put(keys[k]);
        out.byte(EQUALS_BYTE);
        putFlat(item.attrAt(s, k));
      }
    }
    const service = item.extra('service');
    if (service) {
      out.byte(SEP_BYTE);
      out.put(service);
    }
  }
  for (const name of names) {
    out.byte(SEP_BYTE);
    out.put(name);
  }
  return out;
}

/** an attribute value as text into `out`: `key=value` pairs and list items, space-separated */
function putFlat(value: AttrValue): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object') {
    out.put(String(value));
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.byte(SPACE_BYTE);
      putFlat(value[i]);
    }
    return;
  }
  let first = true;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!first) out.byte(SPACE_BYTE);
    out.put(key);
    out.byte(EQUALS_BYTE);
    putFlat(value[key]);
    first = false;
  }
}

const cursor = new PackedItemCursor();

/** between the parts of a row's text (and after each row's): no search box input holds it */
const SEP_BYTE = 0x01;
const HASH_BYTE = 0x23;
const SPACE_BYTE = 0x20;
const EQUALS_BYTE = 0x3d;
