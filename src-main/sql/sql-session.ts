import {
  SQL_PAGE_MAX_ROWS,
  SQL_RESULT_MAX_ROWS,
  type SqlAnswer,
  type SqlCell,
} from '../core/api/trace-api';
import type { SqlTableData } from '../core/sql/sql-table';
import { SqlEngine, SqlError } from './sql-engine';
import { applyRunJoins } from '../core/sql/apply-run-joins';
import type { RunJoins } from '../core/model/run';

/**
 * The SQL engine of one scope (a file, a compare pair, a run's files) and the results it keeps
 * for paging: what the SQL worker runs (sql-worker.ts), and what tests and the CLI use in
 * process. Only the latest two results are kept (bounded memory: SQL_RESULT_MAX_ROWS each).
 */
export class SqlSession {
  private engine: SqlEngine | null = null;
  private readonly results = new Map<string, SqlCell[][]>();
  loadMs = 0;

  /** Loads every file's tables, then locks the engine (no file access, no configuration). */
  async load(files: SqlTableData[][], joins: RunJoins | null): Promise<void> {
    const started = performance.now();
    if (joins !== null) applyRunJoins(files, joins);
    this.engine = await SqlEngine.create(files);
    this.loadMs = performance.now() - started;
  }

  async query(queryId: string, sql: string): Promise<SqlAnswer> {
    const engine = this.engine;
    if (engine === null) throw new Error('the SQL tables are not loaded');
    const started = performance.now();
    try {
      const { columns, rows, truncated } = await engine.query(sql, SQL_RESULT_MAX_ROWS);
      this.results.set(queryId, rows);
      while (this.results.size > 2) this.results.delete(this.results.keys().next().value!);
      return {
        queryId,
        columns,
        rowCount: rows.length,
        truncated,
        rows: rows.slice(0, SQL_PAGE_MAX_ROWS),
        queryMs: performance.now() - started,
        loadMs: this.loadMs,
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        queryId,
        error: {
          message,
          position: error instanceof SqlError ? error.position : null,
          interrupted: /^INTERRUPT Error/.test(message),
        },
      };
    }
  }

  rows(queryId: string, offset: number, count: number): SqlCell[][] {
    const rows = this.results.get(queryId);
    if (rows === undefined) throw new Error(`no kept result of query ${queryId}`);
    return rows.slice(offset, offset + Math.min(count, SQL_PAGE_MAX_ROWS));
  }

  interrupt(): void {
    this.engine?.interrupt();
  }

  close(): void {
    this.engine?.close();
    this.engine = null;
    this.results.clear();
  }
}
