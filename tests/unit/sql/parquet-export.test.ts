import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parquetReadObjects, parquetSchema, parquetMetadata } from 'hyparquet';
import { DuckDBInstance } from '@duckdb/node-api';
import { FIXTURES } from '../../support/fixtures';
import { ingest } from '../../../src-main/ingest/open-sources';
import { buildQueryTables } from '../../../src-main/core/sql/build-query-tables';
import { SQL_TABLES } from '../../../src-main/core/model/sql-schema';
import { SqlEngine } from '../../../src-main/sql/sql-engine';
import { writeParquetTables } from '../../../src-main/sql/parquet-export';

// Parquet out: one file per table with the tables' schema, read back by an independent reader
// (hyparquet, not DuckDB), and the scale-out recipe of docs/scale-out.md run for real: each
// dump exported on its own by the CLI into rollout_id=<id>/, then one SQL over the folder.

const CLI = resolve(__dirname, '../../../out/main/cli.js');
const engines: SqlEngine[] = [];
afterAll(() => engines.forEach((e) => e.close()));

/** a Parquet file's rows as hyparquet reads them, 64-bit integers made numbers */
async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
    ),
  );
}

describe('export --format parquet', () => {
  it('writes every table, and hyparquet reads back exactly the tables', async () => {
    const dir = resolve(FIXTURES, 'run');
    const paths = ['rollout_0.pt', 'sglang_otel_trace.json', 'comm_timeline/slime-trainer-0.jsonl'];
    const traces = paths.map((p) => {
      const path = join(dir, p);
      return { name: p, path, trace: ingest({ sources: [{ kind: 'path', path }] }) };
    });
    const tables = buildQueryTables(traces);
    const out = mkdtempSync(join(tmpdir(), 'te-parquet-'));
    const written = await writeParquetTables(tables, out);
    expect(written.map((p) => p.slice(out.length + 1))).toEqual(
      SQL_TABLES.map((t) => `${t.name}.parquet`),
    );
    const engine = await SqlEngine.create(tables);
    engines.push(engine);
    for (const spec of SQL_TABLES) {
      const path = join(out, `${spec.name}.parquet`);
      const bytes = readFileSync(path);
      const metadata = parquetMetadata(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      );
      const columns = parquetSchema(metadata).children.map((c) => c.element.name);
      expect(columns).toEqual(spec.columns.map((c) => c.name));
      const { columns: names, rows } = await engine.query(
        `SELECT * FROM ${spec.name} ORDER BY ALL`,
        1e7,
      );
      const expected = rows.map((row) => Object.fromEntries(names.map((c, k) => [c.name, row[k]])));
      const key = (r: Record<string, unknown>) => JSON.stringify(Object.values(r));
      const read = (await readParquet(path)).sort((a, b) => (key(a) < key(b) ? -1 : 1));
      expect(read.length).toBe(expected.length);
      expect(new Set(read.map(key))).toEqual(new Set(expected.map(key)));
    }
    // every table has rows from these files (the test would pass on empty tables otherwise)
    const [[spans]] = (await engine.query('SELECT count(*) FROM spans', 1)).rows;
    expect(spans).toBe(traces.reduce((n, t) => n + t.trace.summary.spans, 0));
  });
});

describe.skipIf(!existsSync(CLI))('the scale-out recipe (docs/scale-out.md)', () => {
  it('exports each dump apart into rollout_id=<id>/ and one SQL reads the folder', async () => {
    const dataset = mkdtempSync(join(tmpdir(), 'te-hive-'));
    const dumps = ['rollout_0.pt', 'rollout_1.pt'].map((name) => resolve(FIXTURES, 'run', name));
    const expected: Record<number, { spans: number; samples: number }> = {};
    for (const dump of dumps) {
      const { summary } = ingest({ sources: [{ kind: 'path', path: dump }] });
      const rolloutId = summary.rolloutId as number;
      expected[rolloutId] = { spans: summary.spans, samples: summary.samples };
      const out = join(dataset, `rollout_id=${rolloutId}`);
      const result = spawnSync(
        process.execPath,
        [CLI, 'export', dump, '--format', 'parquet', '-o', out],
        { encoding: 'utf8' },
      );
      expect(result.stderr).toContain('wrote 8 tables');
      expect(result.status).toBe(0);
    }
    // a plain DuckDB with file access, as a user's notebook or a node would have
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    const glob = (table: string) =>
      `read_parquet('${join(dataset, '*', `${table}.parquet`)}', hive_partitioning = true)`;
    const result = await connection.runAndReadAll(`
      SELECT s.rollout_id, count(*) AS spans, count(DISTINCT s.row) AS sampled_rows,
             any_value(m.samples) AS samples
      FROM ${glob('spans')} s
      JOIN (SELECT rollout_id, count(*) AS samples FROM ${glob('samples')} GROUP BY 1) m
        USING (rollout_id)
      GROUP BY s.rollout_id ORDER BY s.rollout_id`);
    const rows = result
      .getRowsJS()
      .map(([id, spans, , samples]) => [
        Number(id),
        { spans: Number(spans), samples: Number(samples) },
      ]);
    expect(Object.fromEntries(rows)).toEqual(expected);
    connection.closeSync();
    db.closeSync();
  });
});
