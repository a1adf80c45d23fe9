import type { AttrValue, PackedRow } from '../model/row';
import { PackedItemCursor } from '../rows/packed-items';
import type { TraceStore } from './build-store';

/** Per store, the rows' search texts built so far (rows [0, texts.length)). */
const cache = new WeakMap<TraceStore, string[]>();

/**
 * Per row, one lowercase string of everything a search box matches: sample index, source,
 * status, label, trace id, span names and attribute values. Built after opening, a slice at a
 * time while the worker is idle (buildSearchTextSlice); a search before then finishes it.
 */
export function rowSearchText(store: TraceStore): string[] {
  const texts = buildSearchTextSlice(store, Infinity);
  return texts;
}

/**
 * Builds the search texts of up to `count` more rows; true once every row has one. Lets the
 * worker build the index between calls instead of on the first search (seconds at 100k rows).
 */
export function buildSearchTextSlice(store: TraceStore, count: number): string[] {
  let texts = cache.get(store);
  if (!texts) {
    texts = [];
    cache.set(store, texts);
  }
  const end = Math.min(store.rows.length, texts.length + count);
  for (let r = texts.length; r < end; r++) texts.push(rowText(store.rows[r]));
  return texts;
}

/**
 * Search texts made while a file is read, as its rows grow (rows are added at the end, each
 * kept as it is): the stores built from those rows (previews, then the whole file) start
 * with them, so the file is searchable as soon as it is read instead of seconds later.
 */
export class SearchTextsWhileReading {
  private rows: readonly PackedRow[] | null = null;
  private texts: string[] = [];

  /** whether the format gave rows while it read (formats that build rows at the end do not) */
  get started(): boolean {
    return this.rows !== null;
  }

  /** texts for the rows added since the last call (a different list starts over) */
  extend(rows: readonly PackedRow[]): void {
    if (rows !== this.rows || rows.length < this.texts.length) {
      this.rows = rows;
      this.texts = [];
    }
    for (let r = this.texts.length; r < rows.length; r++) this.texts.push(rowText(rows[r]));
  }

  /** gives `store` the texts made so far of its rows (the same Row objects, in order) */
  seed(store: TraceStore): void {
    if (cache.has(store)) return;
    let n = Math.min(this.texts.length, store.rows.length);
    // only where the store's rows are the rows these texts were made from
    if (n > 0 && (store.rows[0] !== this.rows![0] || store.rows[n - 1] !== this.rows![n - 1]))
      n = 0;
    cache.set(store, this.texts.slice(0, n));
  }
}

/** Whether every row of the store has its search text. */
export function searchTextReady(store: TraceStore): boolean {
  return (cache.get(store)?.length ?? -1) === store.rows.length;
}

function rowText(row: PackedRow): string {
  // one string grown in place, lowercased once: arrays of parts and entries per attribute
  // were most of the cost (100k rows' texts are made while the file is read)
  let text = `#${String(row.sample_index)}${SEP}${String(row.sample_index)}${SEP}${row.source ?? ''}${SEP}${row.status ?? ''}${SEP}${flat(row.label)}${SEP}${row.trace_id ?? ''}`;
  const names = new Set<string>();
  // read in place: no item objects are made for the texts of 100k rows
  const item = cursor.reset(row.packed);
  while (item.next()) {
    names.add(item.name);
    for (let s = 0; s < item.sectionCount; s++) {
      text += SEP;
      const keys = item.sectionKeys(s);
      for (let k = 0; k < keys.length; k++)
        text += `${k === 0 ? '' : ' '}${keys[k]}=${flat(item.attrAt(s, k))}`;
    }
    const service = item.extra('service');
    if (service) text += `${SEP}${service}`;
  }
  for (const name of names) text += `${SEP}${name}`;
  return text.toLowerCase();
}

const cursor = new PackedItemCursor();

/** between the parts of a row's text: no search box input holds it */
const SEP = '\u0001';

/** an attribute value as text: `key=value` pairs and list items, each separated by a space */
function flat(value: AttrValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  let out = '';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ' ') + flat(value[i]);
    return out;
  }
  let first = true;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    out += `${first ? '' : ' '}${key}=${flat(value[key])}`;
    first = false;
  }
  return out;
}
