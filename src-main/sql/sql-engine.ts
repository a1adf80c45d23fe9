import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  INTEGER,
  VARCHAR,
  type DuckDBType,
  type DuckDBVector,
} from '@duckdb/node-api';
import { SQL_TABLES, type SqlColumnType } from '../core/model/sql-schema';
import { NULL_BOOLEAN, type SqlTableData } from '../core/sql/sql-table';
import type { SqlCell, SqlResultColumn } from '../core/api/trace-api';

/** DuckDB's rows per data chunk (its STANDARD_VECTOR_SIZE). */
const CHUNK_ROWS = 2048;

const DUCK_TYPES: Record<SqlColumnType, DuckDBType> = {
  INTEGER,
  BIGINT,
  DOUBLE,
  BOOLEAN,
  VARCHAR,
};

/** What a query gives: its columns with their engine types, and up to `maxRows` rows. */
export interface SqlRows {
  columns: SqlResultColumn[];
  /** row-major values, numbers where they fit a double exactly, else text */
  rows: SqlCell[][];
  /** more rows were there than `maxRows` */
  truncated: boolean;
}

/** A query the engine refused or that failed: the engine's message and where in the text. */
export class SqlError extends Error {
  constructor(
    message: string,
    /** offset in the query text the engine pointed at, or null */
    readonly position: number | null,
  ) {
    super(message);
  }
}

export interface SqlEngineOptions {
  /**
   * false only for Parquet export (an instance that never runs a query a page typed): the
   * query engine has no file access from its creation and its configuration locked once
   * the tables are in, so a query never reads or writes a file the user did not open
   */
  fileAccess?: boolean;
  /** DuckDB's threads (its own pool, off the JavaScript thread) */
  threads?: number;
}

/**
 * An embedded DuckDB holding the schema's tables (core/model/sql-schema.ts) for a set of open
 * files, filled from their columns (core/sql/build-sql-tables.ts). Queries run on DuckDB's
 * threads; the JavaScript thread only converts the rows answered.
 */
export class SqlEngine {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /** An engine with every file's tables in (`files[k]`: file k's tables), then locked. */
  static async create(
    files: readonly SqlTableData[][],
    options: SqlEngineOptions = {},
  ): Promise<SqlEngine> {
    const fileAccess = options.fileAccess === true;
    const instance = await DuckDBInstance.create(':memory:', {
      // no file, no extension download, no secrets: set at creation, never turned on
      enable_external_access: fileAccess ? 'true' : 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      threads: String(options.threads ?? 2),
    });
    const connection = await instance.connect();
    const engine = new SqlEngine(instance, connection);
    for (const spec of SQL_TABLES) {
      const columns = spec.columns.map((c) => `"${c.name}" ${c.type}`).join(', ');
      await connection.run(`CREATE TABLE ${spec.name} (${columns})`);
    }
    for (const tables of files) for (const table of tables) await engine.append(table);
    if (!fileAccess) await connection.run('SET lock_configuration = true');
    return engine;
  }

  private async append(table: SqlTableData): Promise<void> {
    if (table.rowCount === 0) return;
    const spec = SQL_TABLES.find((t) => t.name === table.name)!;
    const types = spec.columns.map((c) => DUCK_TYPES[c.type]);
    const appender = await this.connection.createAppender(table.name);
    try {
      for (let first = 0; first < table.rowCount; first += CHUNK_ROWS) {
        const count = Math.min(CHUNK_ROWS, table.rowCount - first);
        const chunk = DuckDBDataChunk.create(types, count);
        spec.columns.forEach((column, k) => {
          writeVector(chunk.getColumnVector(k), column.type, table.columns[k], first, count);
        });
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }

  /** Runs one query and reads at most `maxRows` of its rows (more: `truncated`). */
  async query(sql: string, maxRows: number): Promise<SqlRows> {
    try {
      const reader = await this.connection.streamAndReadUntil(sql, maxRows + 1);
      const names = reader.columnNames();
      const types = reader.columnTypes().map(String);
      const rows = reader.getRowsJS();
      const truncated = rows.length > maxRows || !reader.done;
      const kept = rows.length > maxRows ? rows.slice(0, maxRows) : rows;
      return {
        columns: names.map((name, k) => ({ name, type: types[k] })),
        rows: kept.map((row) => row.map(toCell)),
        truncated,
      };
    } catch (error) {
      throw toSqlError(error, sql);
    }
  }

  /** Stops the query running now; it fails with an INTERRUPT error, the engine stays usable. */
  interrupt(): void {
    this.connection.interrupt();
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }

  /** Runs a statement on an instance made with file access (export only). */
  async runWithFileAccess(sql: string): Promise<void> {
    await this.connection.run(sql);
  }
}

function writeVector(
  vector: DuckDBVector,
  type: SqlColumnType,
  values: SqlTableData['columns'][number],
  first: number,
  count: number,
): void {
  const set = vector.setItem.bind(vector) as (at: number, value: unknown) => void;
  if (type === 'VARCHAR') {
    const texts = values as (string | null)[];
    for (let i = 0; i < count; i++) set(i, texts[first + i] ?? null);
  } else if (type === 'BOOLEAN') {
    const flags = values as Uint8Array;
    for (let i = 0; i < count; i++) {
      const flag = flags[first + i];
      set(i, flag === NULL_BOOLEAN ? null : flag === 1);
    }
  } else {
    const numbers = values as Float64Array;
    for (let i = 0; i < count; i++) {
      const v = numbers[first + i];
      if (!Number.isFinite(v)) set(i, null);
      else if (type === 'BIGINT') set(i, BigInt(Math.trunc(v)));
      else if (type === 'INTEGER') set(i, Math.trunc(v) | 0);
      else set(i, v);
    }
  }
  vector.flush();
}

/** A value as the answer carries it: JSON's kinds, a 64-bit integer as a number when exact. */
function toCell(value: unknown): SqlCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(-Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * The engine's error with the place it names: DuckDB ends a parser or binder error with the
 * query's line ("LINE 2: ...") and a caret under the spot; the offset in `sql` is computed
 * from both.
 */
export function toSqlError(error: unknown, sql: string): SqlError {
  const message = error instanceof Error ? error.message : String(error);
  const match = /\nLINE (\d+): (.*)\n( *)\^/.exec(message);
  let position: number | null = null;
  if (match) {
    const lineNumber = Number(match[1]);
    const caret = match[3].length - `LINE ${match[1]}: `.length;
    const lines = sql.split('\n');
    const shown = match[2];
    // DuckDB shows a long line cut around the spot: find the shown text in the line
    const line = lines[lineNumber - 1] ?? '';
    const shownAt = line.indexOf(shown.replace(/^\.\.\./, '').replace(/\.\.\.$/, ''));
    const column = (shownAt >= 0 ? shownAt - (shown.startsWith('...') ? 3 : 0) : 0) + caret;
    let offset = 0;
    for (let k = 0; k < lineNumber - 1 && k < lines.length; k++) offset += lines[k].length + 1;
    position = Math.max(0, Math.min(sql.length, offset + column));
  }
  return new SqlError(message, position);
}
