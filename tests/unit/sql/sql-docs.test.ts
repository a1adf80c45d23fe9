import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';
import { ingest } from '../../../src-main/ingest/open-sources';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { buildQueryTables } from '../../../src-main/core/sql/build-query-tables';
import { SQL_TABLES } from '../../../src-main/core/model/sql-schema';
import { SqlEngine } from '../../../src-main/sql/sql-engine';
import { formatSqlResult } from '../../../src-main/cli/sql-output';

// docs/sql.md stays true: it names every column of the schema, and each of its questions,
// run on the fixture it names, prints the answer it shows.
const DOC = readFileSync(resolve(__dirname, '../../../docs/sql.md'), 'utf8');
const engines: SqlEngine[] = [];
afterAll(() => engines.forEach((e) => e.close()));

describe('docs/sql.md', () => {
  it('describes every table and column of the schema', () => {
    for (const table of SQL_TABLES) {
      expect(DOC).toContain(`### \`${table.name}\``);
      for (const column of table.columns)
        expect(DOC).toMatch(new RegExp(`\\| \`${column.name}\` +\\|`));
    }
  });

  // a question: **...** (`fixture`...) then ```sql ...``` then the indented answer
  const QUESTION =
    /\*\*([^*]+)\*\* \(([^)]*?)`([^`]+)`[\s\S]*?```sql\n([\s\S]*?)```\n\n((?: {4}.*\n)+)/g;
  const questions = [...DOC.matchAll(QUESTION)].map((m) => ({
    question: m[1],
    fixture: m[3],
    sql: m[4],
    answer: m[5],
  }));

  it('asks three questions', () => expect(questions.length).toBe(3));

  it.each(questions)('$question prints the answer shown', async ({ fixture, sql, answer }) => {
    const { groups } = findRunFiles([resolve(FIXTURES, fixture)]);
    const traces = groups.map((group) => ({
      name: group[0],
      path: group[0],
      trace: ingest({ sources: group.map((path) => ({ kind: 'path' as const, path })) }),
    }));
    const engine = await SqlEngine.create(buildQueryTables(traces));
    engines.push(engine);
    const { columns, rows } = await engine.query(sql, 1000);
    const printed = formatSqlResult(columns, rows, 'table').split('\n');
    // the docs leave out the dashes under the header and the row count
    const shown = [printed[0], ...printed.slice(2, 2 + rows.length)];
    expect(shown.map((line) => `    ${line}`).join('\n')).toBe(answer.trimEnd());
  });
});
