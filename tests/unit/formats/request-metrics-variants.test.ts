import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import type { ByteSource } from '../../../src-main/core/bytes/byte-source';
import { siblingFiles } from '../../../src-main/core/formats/registry';
import { parsePythonJson } from '../../../src-main/core/formats/sglang-request-metrics/python-json';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { gunzipIfGzip } from '../../../src-main/core/bytes/gunzip-source';
import { groupPaths } from '../../../src-main/ingest/group-files';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { FIXTURES } from '../../support/fixtures';

// SGLang request-metrics logs in shapes run_extra/'s does not show (tests/fixtures/
// metrics_variants/README.md, written by make-metrics-variants.py as the exporter writes).
const DIR = join(FIXTURES, 'metrics_variants');

/** A folder's hourly set opened as the app opens it; the sources closed after `use`. */
function openSet<T>(
  folder: string,
  use: (trace: ReturnType<typeof openTraceFile>, sources: ByteSource[]) => T,
): T {
  const files = siblingFiles('sglang-request-metrics', join(DIR, folder));
  const sources = files.map((f) => openFileSource(f));
  try {
    return use(openTraceFile(sources), sources);
  } finally {
    for (const s of sources) s.close();
  }
}

describe('request-metrics logs of other shapes', () => {
  it('an older sglang: fields it did not write are unknown, not zero; a 100 KB first line; a cut-off last line', () => {
    openSet('old_version', (trace) => {
      expect(trace.summary.format).toBe('sglang-request-metrics');
      expect(trace.summary.samples).toBe(2);
      expect(trace.summary.skippedLines.count).toBe(1);
      expect(trace.summary.skippedLines.examples[0].reason).toMatch(
        /^request-metrics\/cut-off: sglang-request-metrics-20250301_10\.log line 3:/,
      );
      const [a, b] = trace.runRecords!.requestMetrics!.records;
      expect(a).toMatchObject({
        rid: 'old-a',
        finishType: 'length',
        promptTokens: 25500,
        completionTokens: 16,
        cachedTokens: 0,
        cachedDevice: null,
        cachedHost: null,
        // no retraction field in that sglang: unknown, not 0
        retractions: null,
        dpRank: null,
        weightVersion: null,
        queueSec: null,
        e2eSec: 1.5,
        receivedSec: null,
        finishedSec: null,
      });
      expect([b.rid, b.cachedTokens, b.e2eSec, b.retractions]).toEqual(['old-b', 2, 0.25, null]);
    });
  });

  it('the sglang between: total_retractions (before its rename), null details and DP rank', () => {
    openSet('mid_version', (trace) => {
      expect(trace.summary.samples).toBe(1);
      expect(trace.runRecords!.requestMetrics!.records[0]).toMatchObject({
        rid: 'mid-a',
        finishType: 'length',
        promptTokens: 5,
        cachedTokens: 2,
        cachedDevice: null,
        cachedHost: null,
        retractions: 2,
        dpRank: null,
        weightVersion: 'default',
        e2eSec: 0.20161126554012299,
      });
    });
  });

  it("CRLF lines, Python's NaN and -Infinity: every record opens, a NaN figure is unknown", () => {
    openSet('crlf', (trace, sources) => {
      expect(trace.summary.samples).toBe(2);
      expect(trace.summary.skippedLines.count).toBe(0);
      const [a, b] = trace.runRecords!.requestMetrics!.records;
      expect(a).toMatchObject({
        rid: 'crlf-a',
        cachedTokens: 64,
        cachedDevice: 48,
        cachedHost: 16,
        retractions: 1,
        dpRank: 1,
        weightVersion: '7',
        queueSec: 0.125,
        e2eSec: 1.5,
      });
      // queue_time NaN: no queue time, the rest of the record kept
      expect([b.rid, b.queueSec, b.e2eSec, b.finishedSec]).toEqual([
        'crlf-b',
        null,
        0.75,
        1796605202.75,
      ]);
      const whole = trace.samples.read(0, (use) => use(sources[0])) as Record<string, unknown>;
      expect(whole.output_token_logprobs).toEqual([
        [-0.5, 11, null],
        [-Infinity, 12, null],
      ]);
      expect((whole.request_parameters as { rid: string }).rid).toBe('crlf-a');
    });
  });

  it('a request_parameters string that is not JSON: the record opens, details name the file and line', () => {
    openSet('crlf', (trace, sources) => {
      const whole = trace.samples.read(1, (use) => use(sources[0])) as Record<string, unknown>;
      expect(whole.request_parameters).toBe('{"rid": "crlf-b", "text": "cut he');
      expect(whole.request_parameters_error).toMatch(
        /^request-metrics\/bad-request-parameters: sglang-request-metrics-20261207_01\.log line 2: request_parameters is not JSON/,
      );
      expect(Number.isNaN(whole.queue_time)).toBe(true);
    });
  });

  it("HiCache's storage tier: its hits read beside device and host, in the row and details", () => {
    openSet('storage', (trace, sources) => {
      const [a, b] = trace.runRecords!.requestMetrics!.records;
      expect(a).toMatchObject({
        rid: 'st-a',
        cachedTokens: 192,
        cachedDevice: 64,
        cachedHost: 32,
        cachedStorage: 96,
      });
      expect([b.rid, b.cachedTokens, b.cachedStorage]).toEqual(['st-b', 0, 0]);
      // the row's attrs: a column each for device, host and storage (and the backend's name)
      const [span] = unpackRow(trace.rows[0]).items;
      const attrs = span.type === 'span' ? span.attrs.start_attrs : {};
      expect([
        attrs['cached_tokens_details.device'],
        attrs['cached_tokens_details.host'],
        attrs['cached_tokens_details.storage'],
        attrs['cached_tokens_details.storage_backend'],
      ]).toEqual([64, 32, 96, 'HiCacheFile']);
      const whole = trace.samples.read(0, (use) => use(sources[0])) as {
        cached_tokens_details: Record<string, unknown>;
      };
      expect(whole.cached_tokens_details).toEqual({
        device: 64,
        host: 32,
        storage: 96,
        storage_backend: 'HiCacheFile',
      });
    });
    // a server without a storage tier does not tell it: unknown, not 0
    openSet('crlf', (trace) => {
      expect(trace.runRecords!.requestMetrics!.records.map((r) => r.cachedStorage)).toEqual([
        null,
        null,
      ]);
    });
  });

  it('an hourly set across midnight is one trace, oldest hour first', () => {
    expect(
      siblingFiles('sglang-request-metrics', join(DIR, 'day')).map((f) => f.slice(-15)),
    ).toEqual(['20261206_23.log', '20261207_00.log']);
    openSet('day', (trace, sources) => {
      const records = trace.runRecords!.requestMetrics!.records;
      expect(records.map((r) => [r.rid, r.dpRank, r.weightVersion, r.retractions])).toEqual([
        ['day-a', 0, '3', 0],
        ['day-b', 1, '4', 2],
        ['day-c', 0, '4', 0],
      ]);
      expect(trace.summary.sources).toEqual(['DP 0', 'DP 1']);
      // day-c is the second line of the second file
      const whole = trace.samples.read(2, (use) => use(sources[0])) as { id: string };
      expect(whole.id).toBe('day-c');
    });
  });
});

describe('an hourly set whose hours a log rotator gzipped', () => {
  const names = [
    'sglang-request-metrics-20261207_03.log.gz',
    'sglang-request-metrics-20261207_04.log',
    'sglang-request-metrics-20261207_05.log.gz',
  ];

  it('groups plain and gzipped hours as one set, oldest first, from the folder or any of its files', () => {
    const dir = join(DIR, 'gz_day');
    const set = names.map((n) => join(dir, n));
    expect(siblingFiles('sglang-request-metrics', dir)).toEqual(set);
    for (const file of set) expect(siblingFiles('sglang-request-metrics', file)).toEqual(set);
    // a folder opened in the app: the set is one trace, not one per gzipped hour
    expect(groupPaths([dir]).groups).toEqual([set]);
  });

  it('reads an hour found both plain and gzipped once, from its plain file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rqm-gz-'));
    try {
      for (const n of names) copyFileSync(join(DIR, 'gz_day', n), join(dir, n));
      // hour 04 compressed beside its plain file (a rotator mid-way): one file for the hour
      copyFileSync(join(DIR, 'gz_day', names[2]), join(dir, `${names[1]}.gz`));
      const set = names.map((n) => join(dir, n));
      expect(siblingFiles('sglang-request-metrics', dir)).toEqual(set);
      // the folder opens as that one trace; the gzipped copy is listed as skipped, not a 2nd trace
      const grouped = groupPaths([dir]);
      expect(grouped.groups).toEqual([set]);
      expect(grouped.skipped).toEqual([
        { path: join(dir, `${names[1]}.gz`), reason: `a copy of ${names[1]}, which is read` },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a gzipped later hour is inflated again for details, not kept inflated', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rqm-gz-again-'));
    try {
      for (const n of names) copyFileSync(join(DIR, 'gz_day', n), join(dir, n));
      const files = siblingFiles('sglang-request-metrics', dir);
      const sources = files.map((f) => openFileSource(f));
      try {
        const trace = openTraceFile(sources);
        const read = (row: number) =>
          (
            trace.samples.read(row, (use) => use(gunzipIfGzip(sources[0]))) as {
              request_parameters: { text: string };
            }
          ).request_parameters.text;
        expect(read(2)).toBe('third hour, gzipped: its prompt in details');
        // the hour rewritten after the open, its record the same length: details read the
        // file as it is now, so the open kept none of its inflated bytes
        const later = join(dir, names[2]);
        const text = gunzipSync(readFileSync(later)).toString('utf8');
        writeFileSync(
          later,
          gzipSync(text.replace('its prompt in details', 'ITS PROMPT IN DETAILS')),
        );
        expect(read(2)).toBe('third hour, gzipped: ITS PROMPT IN DETAILS');
      } finally {
        for (const s of sources) s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("opens as one trace; a gzipped later hour's record loads its prompt in details", () => {
    openSet('gz_day', (trace, sources) => {
      expect(trace.summary.samples).toBe(4);
      expect(trace.summary.skippedLines.count).toBe(0);
      const records = trace.runRecords!.requestMetrics!.records;
      expect(records.map((r) => [r.rid, r.retractions, r.weightVersion])).toEqual([
        ['gz-a', 0, '5'],
        ['gz-b', 1, '5'],
        ['gz-c', 0, '6'],
        ['gz-d', 0, '6'],
      ]);
      // the first file as the app reopens it (inflated again); later ones by the set's own means
      const read = (row: number) =>
        trace.samples.read(row, (use) => use(gunzipIfGzip(sources[0]))) as {
          id: string;
          request_parameters: { rid: string; text: string };
        };
      expect(read(0).request_parameters).toMatchObject({
        rid: 'gz-a',
        text: 'first hour, gzipped',
      });
      expect(read(1).request_parameters.text).toBe('second hour, plain');
      expect(read(2).request_parameters).toEqual({
        rid: 'gz-c',
        text: 'third hour, gzipped: its prompt in details',
        sampling_params: { max_new_tokens: 16 },
        stream: false,
        return_logprob: true,
      });
      expect(read(3).id).toBe('gz-d');
    });
  });
});

describe("Python's JSON constants", () => {
  it('reads NaN, Infinity and -Infinity outside strings only; other bad JSON still fails', () => {
    const value = parsePythonJson(
      '{"a": NaN, "b": [-Infinity, Infinity], "c": "NaN \\" -Infinity", "d": {"NaN": 1}}',
    ) as Record<string, unknown>;
    expect(Number.isNaN(value.a)).toBe(true);
    expect(value.b).toEqual([-Infinity, Infinity]);
    expect(value.c).toBe('NaN " -Infinity');
    expect(value.d).toEqual({ NaN: 1 });
    expect(() => parsePythonJson('{"a": NaN, "b": nan}')).toThrow(SyntaxError);
    expect(() => parsePythonJson('{"a": Nope}')).toThrow(SyntaxError);
  });
});
