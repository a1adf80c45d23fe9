import type { RunJoins } from '../model/run';
import type { SqlTableData } from './sql-table';
import { SQL_TABLES, type SqlTableName } from '../model/sql-schema';

/**
 * Fills the columns only a join of the query's files can: samples.stale (a sample made by
 * weights older than its rollout's newest) and which sample asked for each SGLang request
 * (server_requests.sample_file, sample_row, sample_item). `files[k]` are file k's tables;
 * the joins are core/run/build-run-joins.ts's over the same files in the same order.
 */
export function applyRunJoins(files: SqlTableData[][], joins: RunJoins): void {
  for (const stale of joins.stale) {
    const samples = tableOf(files[stale.file], 'samples');
    // a samples table has the sample with row id k at row k (build-sql-tables.ts)
    if (stale.rowId < samples.rowCount) column<Uint8Array>(samples, 'stale')[stale.rowId] = 1;
  }
  const serverRows = files.map((tables) => {
    const table = tableOf(tables, 'server_requests');
    const rows = column<Float64Array>(table, 'row');
    const items = column<Float64Array>(table, 'item');
    const byKey = new Map<string, number>();
    for (let at = 0; at < table.rowCount; at++) byKey.set(`${rows[at]}:${items[at]}`, at);
    return { table, byKey };
  });
  for (const link of joins.links) {
    const { table, byKey } = serverRows[link.server.file];
    const at = byKey.get(`${link.server.rowId}:${link.server.itemIndex}`);
    if (at === undefined) continue;
    column<Float64Array>(table, 'sample_file')[at] = link.client.file;
    column<Float64Array>(table, 'sample_row')[at] = link.client.rowId;
    column<Float64Array>(table, 'sample_item')[at] = link.client.itemIndex;
  }
}

function tableOf(tables: SqlTableData[], name: SqlTableName): SqlTableData {
  return tables.find((t) => t.name === name)!;
}

function column<T>(table: SqlTableData, name: string): T {
  const spec = SQL_TABLES.find((t) => t.name === table.name)!;
  return table.columns[spec.columns.findIndex((c) => c.name === name)] as T;
}
