import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';
import { ingest } from '../../../src-main/ingest/open-sources';
import { buildQueryTables } from '../../../src-main/core/sql/build-query-tables';
import { SqlSession } from '../../../src-main/sql/sql-session';
import { toSqlError } from '../../../src-main/sql/sql-engine';

// In serve mode the page sends SQL: a query must never read or write a file the user did not
// open, nor turn that off again. The engine is made without file access and locked once its
// tables are in (sql-engine.ts); each statement below is refused with the engine's reason.

const path = resolve(FIXTURES, 'slime/rollout_7.pt');
const session = new SqlSession();
const trace = ingest({ sources: [{ kind: 'path', path }] });
let n = 0;
const query = (sql: string) => session.query(`q${n++}`, sql);

beforeAll(async () => {
  await session.load(buildQueryTables([{ name: 'rollout_7.pt', path, trace }]), null);
});
afterAll(() => session.close());

const REFUSED: [string, RegExp][] = [
  ["SELECT * FROM read_text('/etc/passwd')", /Permission Error.*disabled by configuration/],
  ["SELECT * FROM read_csv('/etc/passwd')", /Permission Error/],
  ["SELECT * FROM read_parquet('/tmp/*.parquet')", /Permission Error/],
  ["SELECT * FROM glob('/etc/*')", /Permission Error/],
  ["COPY spans TO '/tmp/trace-explorer-sql-test.csv'", /Permission Error/],
  ["EXPORT DATABASE '/tmp/trace-explorer-sql-test'", /Permission Error/],
  ["ATTACH '/tmp/trace-explorer-sql-test.db' AS other", /Permission Error/],
  ['INSTALL httpfs', /Permission Error/],
  ['LOAD httpfs', /Permission Error|disabled/],
  ['SET enable_external_access = true', /configuration has been locked/],
  ['SET lock_configuration = false', /configuration has been locked/],
  ["SET allowed_directories = ['/']", /configuration has been locked/],
  ["SET profiling_output = '/tmp/trace-explorer-profile.json'", /configuration has been locked/],
  ["SELECT * FROM read_text('https://example.com/')", /Permission Error|disabled/],
];

describe('SQL from a page reaches no file', () => {
  it.each(REFUSED)('%s is refused', async (sql, why) => {
    const answer = await query(sql);
    expect('error' in answer).toBe(true);
    if ('error' in answer) expect(answer.error.message).toMatch(why);
  });

  it('leaves the tables queryable after every refusal', async () => {
    const answer = await query('SELECT count(*) AS spans FROM spans');
    expect('error' in answer ? answer.error : answer.rows).toEqual([[trace.summary.spans]]);
  });
});

describe('a long query', () => {
  it('is interrupted on cancel, and the next query answers', async () => {
    const running = query('SELECT count(*) FROM spans a, spans b, spans c, spans d');
    let settled = false;
    void running.finally(() => (settled = true));
    // interrupt until it has stopped: an interrupt before the query started is lost
    while (!settled) {
      session.interrupt();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answer = await running;
    expect('error' in answer && answer.error.interrupted).toBe(true);
    const next = await query('SELECT count(*) FROM samples');
    expect('error' in next ? next.error : next.rows).toEqual([[trace.summary.samples]]);
  });
});

describe('results are bounded and paged', () => {
  it('keeps SQL_RESULT_MAX_ROWS rows, answers the first page, pages the rest', async () => {
    const answer = await query('SELECT range AS k FROM range(250000)');
    if ('error' in answer) throw new Error(answer.error.message);
    expect(answer.truncated).toBe(true);
    expect(answer.rowCount).toBe(200_000);
    expect(answer.rows.length).toBe(2000);
    expect(session.rows(answer.queryId, 199_999, 10)).toEqual([[199_999]]);
  });
});

describe("an error's position in the query", () => {
  it('is where the engine points, on the line it names', async () => {
    const sql = 'SELECT 1\nFROM spans\nWHERE nope > 1';
    const answer = await query(sql);
    if (!('error' in answer)) throw new Error('the query should fail');
    expect(answer.error.message).toMatch(/nope/);
    expect(answer.error.position).toBe(sql.indexOf('nope'));
  });

  it('finds the spot in a line DuckDB shows cut', () => {
    const message = 'Parser Error: syntax error\n\nLINE 1: ...b FORM t\n             ^';
    const sql = `SELECT ${'x, '.repeat(40)}b FORM t`;
    expect(toSqlError(new Error(message), sql).position).toBe(sql.indexOf('FORM'));
  });
});
