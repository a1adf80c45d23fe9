import { SQL_TABLES, type SqlColumnSpec, type SqlTableName } from '../model/sql-schema';

/**
 * A column's values before they reach the engine: numbers as a Float64Array (NaN is NULL),
 * booleans as a Uint8Array (0, 1; NULL_BOOLEAN is NULL), text as strings (null is NULL).
 * Typed arrays cross threads as bytes, and the loader writes them without boxing each value.
 */
export type SqlColumnValues = Float64Array | Uint8Array | (string | null)[];

export const NULL_BOOLEAN = 2;

/** One table's rows as columns, in its spec's column order. */
export interface SqlTableData {
  name: SqlTableName;
  rowCount: number;
  columns: SqlColumnValues[];
}

/**
 * Writes a table row by row into columns sized for `capacity` rows (grown by half when a
 * count was not known), then gives the columns cut to the rows written.
 */
export class SqlTableWriter {
  readonly specs: readonly SqlColumnSpec[];
  private columns: SqlColumnValues[];
  private capacity: number;
  rowCount = 0;

  constructor(
    readonly name: SqlTableName,
    capacity = 64,
  ) {
    this.specs = SQL_TABLES.find((t) => t.name === name)!.columns;
    this.capacity = Math.max(1, capacity);
    this.columns = this.specs.map((spec) => emptyColumn(spec, this.capacity));
  }

  /** Starts a row (every value NULL until set); returns its index. */
  addRow(): number {
    if (this.rowCount === this.capacity) this.grow(Math.ceil(this.capacity * 1.5));
    return this.rowCount++;
  }

  /** Sets column `k` of row `at`: a number (NaN: NULL), a boolean, a string or null. */
  set(at: number, k: number, value: number | boolean | string | null): void {
    const column = this.columns[k];
    if (Array.isArray(column)) column[at] = value === null ? null : String(value);
    else if (column instanceof Uint8Array)
      column[at] = value === null ? NULL_BOOLEAN : value ? 1 : 0;
    else column[at] = typeof value === 'number' ? value : value === null ? NaN : Number(value);
  }

  /** Each column's index by name (a builder looks them up once, not per row). */
  get columnIndexes(): Record<string, number> {
    return Object.fromEntries(this.specs.map((spec, k) => [spec.name, k]));
  }

  finish(): SqlTableData {
    const n = this.rowCount;
    const columns = this.columns.map((column) =>
      Array.isArray(column) ? column.slice(0, n) : column.slice(0, n),
    );
    return { name: this.name, rowCount: n, columns };
  }

  private grow(capacity: number): void {
    this.columns = this.columns.map((column, k) => {
      const grown = emptyColumn(this.specs[k], capacity);
      if (Array.isArray(grown)) {
        const old = column as (string | null)[];
        for (let i = 0; i < this.rowCount; i++) grown[i] = old[i];
      } else (grown as Float64Array | Uint8Array).set(column as Float64Array | Uint8Array);
      return grown;
    });
    this.capacity = capacity;
  }
}

function emptyColumn(spec: SqlColumnSpec, length: number): SqlColumnValues {
  if (spec.type === 'VARCHAR') return new Array<string | null>(length).fill(null);
  if (spec.type === 'BOOLEAN') return new Uint8Array(length).fill(NULL_BOOLEAN);
  return new Float64Array(length).fill(NaN);
}
