/**
 * A store's row indexes (rows by status, by source, by span name; a row's index by its id),
 * each made from the store's columns the first time it is asked, as one list of rows and one of
 * where each key's rows begin. Kept per row as they were (a Map entry and an array per key, then
 * a view per key), they were a third of the store of a Chrome trace of 300,000 one-slice
 * processes, each source its own key; made while the rows were taken in, they were there at the
 * moment memory peaked. Read-only Maps to their callers.
 */

/** Rows of each key (a string id of the store, -1 for none), each row once, in row order. */
interface KeyedRows {
  /** the rows of key k are rows[starts[k + 1]] up to rows[starts[k + 2]] */
  starts: Int32Array;
  rows: Int32Array;
}

/** The rows of each key of a per-row column (a row's status or source string id). */
export function rowsByRowKey(keyOf: Int32Array, keyCount: number): () => KeyedRows {
  return () => {
    const counts = new Int32Array(keyCount + 3);
    for (let r = 0; r < keyOf.length; r++) counts[keyOf[r] + 3]++;
    return fill(counts, keyOf.length, (put) => {
      for (let r = 0; r < keyOf.length; r++) put(keyOf[r], r);
    });
  };
}

/**
 * The rows holding an item of each key (an item's name id), each row once: items of row r are
 * [itemOffset[r], itemOffset[r + 1]).
 */
export function rowsByItemKey(
  keyOf: Int32Array,
  itemOffset: Int32Array,
  rowCount: number,
  keyCount: number,
): () => KeyedRows {
  return () => {
    const counts = new Int32Array(keyCount + 3);
    // the last row each key was counted for: a row's items may name a key many times
    const lastRow = new Int32Array(keyCount + 1).fill(-1);
    const each = (put: (key: number, r: number) => void) => {
      lastRow.fill(-1);
      for (let r = 0; r < rowCount; r++) {
        for (let i = itemOffset[r]; i < itemOffset[r + 1]; i++) {
          const key = keyOf[i];
          if (lastRow[key + 1] === r) continue;
          lastRow[key + 1] = r;
          put(key, r);
        }
      }
    };
    let total = 0;
    each((key) => {
      counts[key + 3]++;
      total++;
    });
    return fill(counts, total, each);
  };
}

/**
 * `counts[k + 3]` rows per key k into one list, through `each`'s (key, row) pairs in order. The
 * counts become where each key's rows begin (at k + 2), each moved on as a row is put, so
 * that it ends where the key's rows end and k + 1's place holds where they begin: one array.
 */
function fill(
  counts: Int32Array,
  total: number,
  each: (put: (key: number, r: number) => void) => void,
): KeyedRows {
  const starts = counts;
  for (let k = 1; k < starts.length; k++) starts[k] += starts[k - 1];
  const rows = new Int32Array(total);
  each((key, r) => {
    rows[starts[key + 2]++] = r;
  });
  return { starts, rows };
}

/** Rows by key, made on first use: a read-only Map whose lists are views of one buffer. */
export class RowsByKey implements ReadonlyMap<number, Int32Array> {
  private made: KeyedRows | null = null;
  private keyList: number[] | null = null;

  constructor(private readonly make: () => KeyedRows) {}

  private index(): KeyedRows {
    this.made ??= this.make();
    return this.made;
  }

  /** the keys that have rows, -1 (none) first, then by id */
  private keysWithRows(): number[] {
    if (this.keyList === null) {
      const { starts } = this.index();
      const keys: number[] = [];
      for (let k = -1; k + 3 < starts.length; k++) if (starts[k + 2] > starts[k + 1]) keys.push(k);
      this.keyList = keys;
    }
    return this.keyList;
  }

  get size(): number {
    return this.keysWithRows().length;
  }

  get(key: number): Int32Array | undefined {
    const { starts, rows } = this.index();
    if (!Number.isInteger(key) || key < -1 || key + 3 >= starts.length) return undefined;
    const from = starts[key + 1];
    const to = starts[key + 2];
    return to > from ? rows.subarray(from, to) : undefined;
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  *keys(): MapIterator<number> {
    yield* this.keysWithRows();
  }

  *values(): MapIterator<Int32Array> {
    for (const key of this.keysWithRows()) yield this.get(key)!;
  }

  *entries(): MapIterator<[number, Int32Array]> {
    for (const key of this.keysWithRows()) yield [key, this.get(key)!];
  }

  [Symbol.iterator](): MapIterator<[number, Int32Array]> {
    return this.entries();
  }

  forEach(
    callback: (value: Int32Array, key: number, map: ReadonlyMap<number, Int32Array>) => void,
  ): void {
    for (const [key, rows] of this.entries()) callback(rows, key, this);
  }
}

/**
 * A row's index by its id, made on first use: none when every row's id is its index (Chrome,
 * OTLP, most dumps), else a Map (the last row of an id, as a Map filled in order keeps it).
 */
export class RowIndexById implements ReadonlyMap<number, number> {
  /** null: not looked at yet; 'identity': row_id r is row r */
  private byId: Map<number, number> | 'identity' | null = null;

  constructor(private readonly rowId: Int32Array) {}

  private index(): Map<number, number> | 'identity' {
    if (this.byId === null) {
      const { rowId } = this;
      let identity = true;
      for (let r = 0; r < rowId.length && identity; r++) identity = rowId[r] === r;
      if (identity) this.byId = 'identity';
      else {
        const byId = new Map<number, number>();
        for (let r = 0; r < rowId.length; r++) byId.set(rowId[r], r);
        this.byId = byId;
      }
    }
    return this.byId;
  }

  get size(): number {
    const index = this.index();
    return index === 'identity' ? this.rowId.length : index.size;
  }

  get(id: number): number | undefined {
    const index = this.index();
    if (index !== 'identity') return index.get(id);
    return Number.isInteger(id) && id >= 0 && id < this.rowId.length ? id : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  *entries(): MapIterator<[number, number]> {
    const index = this.index();
    if (index !== 'identity') yield* index.entries();
    else for (let r = 0; r < this.rowId.length; r++) yield [r, r];
  }

  *keys(): MapIterator<number> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): MapIterator<number> {
    for (const [, r] of this.entries()) yield r;
  }

  [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }

  forEach(callback: (r: number, id: number, map: ReadonlyMap<number, number>) => void): void {
    for (const [id, r] of this.entries()) callback(r, id, this);
  }
}
