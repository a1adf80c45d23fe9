import type { AttrValue, PackedRow } from '../model/row';
import { PackedItemCursor } from './packed-items';

// What a search box matches in a row, as bytes: made by the thread that builds the row (the
// file's, or a helper's for its part of a dump, which sends them with its rows) and kept by
// the store's search index (core/store/search-text.ts).

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
export function rowText(row: PackedRow): TextBytes {
  out.size = 0;
  const index = String(row.sample_index);
  out.byte(HASH_BYTE);
  out.put(index);
  out.byte(SEP_BYTE);
  out.put(index);
  out.byte(SEP_BYTE);
  out.put(row.source ?? '');
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
export const SEP_BYTE = 0x01;
const HASH_BYTE = 0x23;
const SPACE_BYTE = 0x20;
const EQUALS_BYTE = 0x3d;

/**
 * The search texts of consecutive rows, made where the rows were built: text k is
 * `bytes[k === 0 ? 0 : ends[k - 1], ends[k])` (no separators).
 */
export interface RowTexts {
  bytes: Uint8Array;
  ends: Int32Array;
}

/** Row texts made elsewhere for the rows from `first` on (of the rows they were made for). */
export interface MadeRowTexts {
  first: number;
  texts: RowTexts;
}

/** The texts of `rows`, as rowText makes each (what a helper thread sends with its rows). */
export function rowTextsOf(rows: readonly PackedRow[]): RowTexts {
  const ends = new Int32Array(rows.length);
  let bytes = new Uint8Array(rows.length * 512);
  let size = 0;
  for (let k = 0; k < rows.length; k++) {
    const text = rowText(rows[k]);
    if (size + text.size > bytes.length) {
      const bigger = new Uint8Array(Math.max(bytes.length * 2, size + text.size));
      bigger.set(bytes.subarray(0, size));
      bytes = bigger;
    }
    bytes.set(text.bytes.subarray(0, text.size), size);
    size += text.size;
    ends[k] = size;
  }
  return { bytes: bytes.slice(0, size), ends };
}
