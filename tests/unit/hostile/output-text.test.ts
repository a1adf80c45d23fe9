import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { terminalLines, terminalText } from '../../../src-main/core/bytes/terminal-text';
import { buildRowsCsv, csvCell } from '../../../src-main/core/export/csv-export';
import type { RowFields } from '../../../src-main/core/model/row';
import { SLIME } from '../../support/fixtures';
import { nanos, otlpFile, otlpLine, spanId } from './otlp-writer';

/**
 * Issue 49, findings 7 (terminal injection) and 8 (CSV formulas): text from a file reaches a
 * terminal only as escapes, and a spreadsheet never as a formula.
 */

/** What a hostile file puts in names: a window title, a screen clear, a hyperlink, overwrites. */
const HOSTILE =
  '\x1b]0;pwned\x07\x1b[2J\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07\roverwritten' +
  '\u009b31m\u202eright-to-left';
/** HOSTILE as a file name can hold it (no slash) */
const HOSTILE_NAME = HOSTILE.replace(/\//g, '_');
/** A file name holding a newline that would forge a line of `summary`. */
const FORGED_NAME = `evil\nformat    forged\x1b[2J.jsonl`;

/** Any character a terminal acts on, apart from the newlines between our own lines. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const CLI = resolve(__dirname, '../../../out/main/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'te-output-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, HOME: dir, XDG_CACHE_HOME: dir },
  });

/** An OTLP file whose service, scope, span names and attributes are all HOSTILE. */
function hostileOtlp(): Uint8Array {
  const attributes = [{ key: HOSTILE, value: { stringValue: HOSTILE } }];
  return otlpFile([
    otlpLine([
      { spanId: spanId(1), name: HOSTILE, start: nanos(0), end: nanos(1), attributes },
      { spanId: spanId(2), parentSpanId: spanId(1), name: `b${HOSTILE}`, start: nanos(0.2) },
    ]),
    `{"not json ${HOSTILE}`,
  ]);
}

function expectTerminalSafe(text: string) {
  expect(text).not.toMatch(RAW_CONTROL);
  // every line we print starts with one of our own words, never with the forged one
  expect(text.split('\n').filter((line) => line.startsWith('format    forged'))).toEqual([]);
}

describe('terminal text (issue 49, finding 7)', () => {
  it('writes controls as escapes a reader can see, and keeps other text as it is', () => {
    expect(terminalText('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(terminalText('\x1b]0;t\x07')).toBe('\\x1b]0;t\\x07');
    expect(terminalText('x\ry\nz\t')).toBe('x\\ry\\nz\\t');
    expect(terminalText('\u009b31m \u007f')).toBe('\\x9b31m \\x7f');
    expect(terminalText('\u202eabc\u2066')).toBe('\\u202eabc\\u2066');
    expect(terminalText('rollout_7.pt é 中 \\x1b')).toBe('rollout_7.pt é 中 \\x1b');
    expect(terminalLines('one\ntwo\r\x1b')).toBe('one\ntwo\\r\\x1b');
  });

  it('summary, compare, rows and error lines print a hostile file and file name as escapes', () => {
    const path = join(dir, FORGED_NAME);
    writeFileSync(path, hostileOtlp());
    const summary = run('summary', path);
    expect(summary.status, summary.stderr).toBe(0);
    expectTerminalSafe(summary.stdout);
    expect(summary.stdout).toContain('evil\\nformat    forged\\x1b[2J.jsonl');
    expect(summary.stdout.split('\n').filter((l) => l.startsWith('format    '))).toHaveLength(1);

    const compare = run('compare', path, path);
    expect(compare.status, compare.stderr).toBe(0);
    expectTerminalSafe(compare.stdout);
    expect(compare.stdout).toContain('A  evil\\nformat');

    // `--json` escapes by JSON's rules: the names come back exactly
    const json = run('summary', '--json', path);
    expect((JSON.parse(json.stdout) as { name: string }).name).toBe(FORGED_NAME);

    // an error line names the file: one line, escaped
    const broken = join(dir, `broken${HOSTILE_NAME}\n.pt`);
    writeFileSync(broken, 'not a pickle');
    for (const command of ['summary', 'rows', 'compare']) {
      const failed = run(command, broken, ...(command === 'compare' ? [broken] : []));
      expect(failed.status, command).toBe(1);
      expectTerminalSafe(failed.stderr);
      expect(failed.stderr.trimEnd().split('\n'), command).toHaveLength(1);
      expect(failed.stderr).toContain('\\x1b]0;pwned\\x07');
    }
  });

  it('trends prints a dump named with controls as escapes, and folder summary its skipped files', () => {
    const folder = join(dir, 'trends');
    rmSync(folder, { recursive: true, force: true });
    spawnSync('mkdir', [folder]);
    copyFileSync(join(SLIME, 'rollout_7.pt'), join(folder, `rollout_7${HOSTILE_NAME}\n.pt`));
    writeFileSync(join(folder, `notes${HOSTILE_NAME}.txt`), 'plain text, not a trace');
    const trends = run('trends', '--no-cache', folder);
    expect(trends.status, trends.stderr).toBe(0);
    expectTerminalSafe(trends.stdout);
    expect(trends.stdout).toContain('rollout_7\\x1b]0;pwned');
    const summary = run('summary', folder);
    expect(summary.status, summary.stderr).toBe(0);
    expectTerminalSafe(summary.stdout);
    expect(summary.stdout).toContain('skipped   notes\\x1b]0;pwned');
  });
});

describe('CSV cells (issue 49, finding 8)', () => {
  const FORMULAS = [
    '=1+1',
    '+1+1',
    '-1+1',
    '@SUM(A1)',
    '\t=1+1',
    '\r=1+1',
    'a;=1+1',
    'a\t=1+1',
    'a,=1+1',
    'a"=1+1',
    'x;\t;=cmd|"/c calc"!A0',
    'line\n=1+1',
  ];
  const START = /^[=+\-@\t\r]/;
  const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;

  it('no cell, however a spreadsheet splits the line, starts a formula', () => {
    const base = { row_id: 0, sample_index: 0, reward: -1.5 } as unknown as RowFields;
    const rows = FORMULAS.map((label, i) => ({ ...base, row_id: i, label, source: label }));
    const csv = buildRowsCsv(rows);
    const lines = csv.split(/\r\n|\r|\n/);
    for (const separator of [',', ';', '\t']) {
      for (const piece of lines.flatMap((line) => line.split(separator))) {
        // a reader that starts a cell after a quote sees what follows the quotes
        const cell = piece.replace(/^"+/, '');
        if (NUMBER.test(cell)) continue; // -1.5 is a number, not a formula
        expect(START.test(cell), JSON.stringify({ separator, piece })).toBe(false);
      }
    }
  });

  it('a formula cell is quoted whole with a leading apostrophe; plain cells stay as they are', () => {
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('@x')).toBe(`"'@x"`);
    expect(csvCell('a;=1+1')).toBe(`"a;'=1+1"`);
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(null)).toBe('');
  });
});
