import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { readRequestMetrics } from '../../../src-main/core/formats/sglang-request-metrics/read-request-metrics';
import {
  LineError,
  metricsRecord,
  parseMetricsLine,
} from '../../../src-main/core/formats/sglang-request-metrics/parse-metrics-line';
import { stringEnd } from '../../../src-main/core/formats/sglang-request-metrics/string-end';
import { RUN_EXTRA } from '../../support/run-extra-expected';

// run_extra's request-metrics log (SGLang's own exporter): the reader's line walk over chunks
// and its meta_info scan, against JSON.parse of each whole line.
const NAME = 'sglang-request-metrics-20260825_09.log';
const path = join(RUN_EXTRA, 'sglang_request_metrics', NAME);
const text = readFileSync(path, 'utf8');
const lines = text.split('\n').filter((l) => l !== '');
const encode = (line: string) => new TextEncoder().encode(line);

/** A record as a whole-line JSON.parse gives it: the reference the byte scan must match. */
function parsedWhole(line: string) {
  const meta = JSON.parse(line) as Record<string, unknown>;
  delete meta.request_parameters;
  return metricsRecord(meta, 0);
}

describe('request-metrics lines', () => {
  it('reads lines that cross chunk boundaries from a file (chunks read over one buffer)', () => {
    // 2 KiB chunks: every line (3-9 KiB here) spans two to five reads of one reused buffer;
    // a carried part kept as a view of that buffer was overwritten by the next read
    const sizes = lines.map((l) => l.length);
    expect(Math.min(...sizes)).toBeGreaterThan(2048);
    const dir = mkdtempSync(join(tmpdir(), 'request-metrics-lines-'));
    const copy = join(dir, NAME);
    writeFileSync(copy, text);
    const source = openFileSource(copy);
    try {
      const read = readRequestMetrics([source], () => {}, undefined, undefined, 2048);
      expect(read.skippedLines.count).toBe(0);
      expect(read.records.map((r) => r.rid)).toEqual(
        lines.map((l) => (JSON.parse(l) as { id: string }).id),
      );
      const whole = readRequestMetrics([source], () => {});
      expect(read.records).toEqual(whole.records);
    } finally {
      source.close();
    }
  });

  it('reads a CRLF file with a byte-order mark as the plain file: same records, same details', () => {
    const windows = `\ufeff${text.replace(/\n/g, '\r\n')}`;
    const plain = openTraceFile([bytesSource(NAME, encode(text))]);
    const dir = mkdtempSync(join(tmpdir(), 'request-metrics-crlf-'));
    const copy = join(dir, NAME);
    writeFileSync(copy, windows);
    const source = openFileSource(copy);
    try {
      const read = readRequestMetrics([source], () => {}, undefined, undefined, 2048);
      expect(read.skippedLines.count).toBe(0);
      expect(read.records).toEqual(plain.runRecords!.requestMetrics!.records);
      // each record's place: the first line starts after the mark, each line ends before its CR
      const trace = openTraceFile([source]);
      const withBytes = <T>(use: (bytes: ByteSource) => T): T => use(source);
      const plainBytes = <T>(use: (bytes: ByteSource) => T): T =>
        use(bytesSource(NAME, encode(text)));
      for (let rowId = 0; rowId < lines.length; rowId++)
        expect(trace.samples.read(rowId, withBytes)).toEqual(plain.samples.read(rowId, plainBytes));
    } finally {
      source.close();
    }
  });

  it("gives every line's record as JSON.parse of the whole line does, its lists walked past", () => {
    lines.forEach((line) => {
      const scanned = parseMetricsLine(encode(line));
      if (scanned instanceof LineError) throw new Error(scanned.reason);
      // the per-token lists are left out; every other key is kept as parsed
      const full = JSON.parse(line) as Record<string, unknown>;
      const lists = Object.keys(full).filter((k) => Array.isArray(full[k]));
      expect(lists).toEqual(
        expect.arrayContaining(['input_token_logprobs', 'output_token_logprobs']),
      );
      for (const key of Object.keys(full)) {
        if (key === 'request_parameters' || lists.includes(key))
          expect(scanned.meta).not.toHaveProperty(key);
        else expect(scanned.meta[key]).toEqual(full[key]);
      }
      expect(metricsRecord(scanned.meta, 0)).toEqual(parsedWhole(line));
    });
  });

  it('walks past lists whose first "]]" is not their end (deeper lists, strings, objects)', () => {
    const line = lines[0];
    const value = /"output_token_logprobs": (\[\[.*?\]\])/.exec(line)![1];
    for (const list of [
      '[[[1, 2]], [3]]',
      '[[1, "a]]"], [2]]',
      '[[1, {"k": [[2]]}], [3]]',
      '[[1] , [2] ]',
      '[]',
    ]) {
      const changed = line.replace(value, list);
      expect(changed).not.toBe(line);
      const scanned = parseMetricsLine(encode(changed));
      if (scanned instanceof LineError) throw new Error(`${list}: ${scanned.reason}`);
      expect(metricsRecord(scanned.meta, 0)).toEqual(parsedWhole(changed));
      expect(scanned.meta.output_token_logprobs_length).toBe(
        (JSON.parse(changed) as Record<string, unknown>).output_token_logprobs_length,
      );
    }
  });

  it("finds a string's end near or far, past escaped quotes and at escaped backslashes", () => {
    const end = (json: string) => stringEnd(encode(json), 1);
    // each case is a JSON string and what follows it: its end is where JSON.parse says
    for (const text of [
      '',
      'id',
      'a\\"b',
      'x'.repeat(47) + '\\"',
      'x'.repeat(200),
      'y'.repeat(60) + '\\\\',
      '\\\\',
    ]) {
      const json = JSON.stringify(text);
      expect(JSON.parse(json)).toBe(text);
      expect(end(`${json}, "next": 1`)).toBe(json.length - 1);
    }
    expect(end('"never ends')).toBe(-1);
    expect(end('"' + 'z'.repeat(100))).toBe(-1);
    expect(end('"ends in an escaped quote\\"')).toBe(-1);
  });

  it('names a line whose meta_info is cut or malformed, in a list it walks past too', () => {
    const line = lines[0];
    const list = line.indexOf('"output_token_logprobs": [');
    expect(list).toBeGreaterThan(0);
    const cases: [string, RegExp][] = [
      // a list that never closes, so the line's end is inside it
      [
        line.slice(0, list) + '"output_token_logprobs": [[1, 2, null], [3',
        /list or object never ends/,
      ],
      // text after the object
      [line + ' x', /text after the "}"/],
      // a key without a value
      [line.replace('"dp_rank": 0', '"dp_rank": '), /value is missing|not JSON/],
      // a string in a walked-past list that never ends
      [line.slice(0, list) + '"output_token_logprobs": ["abc}]}', /string never ends/],
    ];
    for (const [bad, reason] of cases) {
      const parsed = parseMetricsLine(encode(bad));
      expect(parsed).toBeInstanceOf(LineError);
      expect((parsed as LineError).code).toBe('request-metrics/not-json');
      expect((parsed as LineError).reason).toMatch(reason);
    }
  });
});
