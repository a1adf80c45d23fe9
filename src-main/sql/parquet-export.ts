import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SQL_TABLES } from '../core/model/sql-schema';
import type { SqlTableData } from '../core/sql/sql-table';
import { SqlEngine } from './sql-engine';

/**
 * Writes one Parquet file per table (`<dir>/<table>.parquet`, the schema of docs/sql.md) from
 * an engine made for this alone: the only one with file access, and it runs no query but its
 * own COPY statements (never text a page or a user typed). Answers the files written.
 */
export async function writeParquetTables(
  files: readonly SqlTableData[][],
  dir: string,
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const engine = await SqlEngine.create(files, { fileAccess: true });
  const written: string[] = [];
  try {
    for (const { name } of SQL_TABLES) {
      const path = join(dir, `${name}.parquet`);
      // a path is a string literal in SQL: its quotes doubled
      const literal = `'${path.replace(/'/g, "''")}'`;
      await engine.runWithFileAccess(`COPY ${name} TO ${literal} (FORMAT parquet)`);
      written.push(path);
    }
  } finally {
    engine.close();
  }
  return written;
}
