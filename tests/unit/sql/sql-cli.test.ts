import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';
import { terminalText } from '../../../src-main/core/bytes/terminal-text';
import { csvField, spreadsheetText } from '../../../src-main/cli/safe-cell-text';
import { formatSqlResult } from '../../../src-main/cli/sql-output';

const CLI = resolve(__dirname, '../../../out/main/cli.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const DUMP = resolve(FIXTURES, 'slime/rollout_7.pt');

describe('text from a trace, printed', () => {
  it('shows control characters escaped in a terminal table', () => {
    expect(terminalText('a\u001b[31mred\u0007\nb\u009b')).toBe('a\\x1b[31mred\\x07\\nb\\x9b');
  });

  it('defuses formula-leading CSV cells and quotes as RFC 4180 says', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(spreadsheetText(`${start}1+1`).startsWith("'")).toBe(true);
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('\u001b]0;title\u0007')).toBe('\\x1b]0;title\\x07');
  });

  it('prints a result as a table with NULLs, CSV with a header, JSON lines', () => {
    const columns = [
      { name: 'name', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
    ];
    const rows = [
      ['=cmd', 12],
      [null, 3],
    ];
    expect(formatSqlResult(columns, rows, 'table')).toBe(
      'name   n\n----  --\n=cmd  12\nNULL   3\n(2 rows)\n',
    );
    expect(formatSqlResult(columns, rows, 'csv')).toBe("name,n\r\n'=cmd,12\r\n,3\r\n");
    expect(formatSqlResult(columns, rows, 'json')).toBe(
      '{"name":"=cmd","n":12}\n{"name":null,"n":3}\n',
    );
  });
});

describe.skipIf(!existsSync(CLI))('trace-explorer sql', () => {
  it('answers -e over a dump as CSV: samples per status equal summary --json', () => {
    const summary = JSON.parse(run('summary', '--json', DUMP).stdout) as {
      samples: number;
      statuses: Record<string, number>;
    };
    const result = run(
      'sql',
      DUMP,
      '--format',
      'csv',
      '-e',
      'SELECT status, count(*) AS n FROM samples GROUP BY status ORDER BY status',
    );
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('status,n');
    const counts = Object.fromEntries(
      lines.slice(1).map((l) => [l.split(',')[0], Number(l.split(',')[1])]),
    );
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(summary.samples);
  });

  it('reads the query from -f and prints JSON lines', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'te-sql-')), 'q.sql');
    writeFileSync(file, 'SELECT count(*) AS spans FROM spans');
    const summary = JSON.parse(run('summary', '--json', DUMP).stdout) as { spans: number };
    const result = run('sql', DUMP, '-f', file, '--format', 'json');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ spans: summary.spans });
  });

  it("says the engine's error and reads no file", () => {
    const result = run('sql', DUMP, '-e', "SELECT * FROM read_text('/etc/passwd')");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Permission Error/);
    expect(result.stdout).toBe('');
  });

  it('needs exactly one of -e and -f', () => {
    expect(run('sql', DUMP).status).toBe(2);
    expect(run('sql', DUMP, '-e', 'SELECT 1', '-f', 'x.sql').status).toBe(2);
  });
});
