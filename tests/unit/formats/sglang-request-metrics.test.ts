import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { openFileSource } from '../../../src-main/core/bytes/file-source';
import { findFormat, siblingFiles } from '../../../src-main/core/formats/registry';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { EXPECTED_EXTRA, RUN_EXTRA } from '../../support/run-extra-expected';

// run_extra's SGLang request metrics (README "The request-metrics record", "Counts";
// expected_extra.json "request_metrics"), written by SGLang's own FileRequestMetricsExporter.
const NAME = 'sglang-request-metrics-20260825_09.log';
const text = readFileSync(join(RUN_EXTRA, 'sglang_request_metrics', NAME), 'utf8');
const lines = text.split('\n').filter((l) => l !== '');
const expected = EXPECTED_EXTRA.request_metrics;
const open = (body: string, name = NAME) =>
  openTraceFile([bytesSource(name, new TextEncoder().encode(body))]);
const noBytes = <T>(use: (bytes: ByteSource) => T): T =>
  use(bytesSource(NAME, new TextEncoder().encode(text)));

describe("SGLang's request-metrics log", () => {
  it('opens as its own format: one record a line, every count of the README', () => {
    const trace = open(text);
    expect(trace.summary.format).toBe('sglang-request-metrics');
    expect(lines).toHaveLength(expected.lines);
    expect(trace.summary.samples).toBe(expected.records);
    expect(trace.summary.skippedLines.count).toBe(expected.unparseable_lines);
    const records = trace.runRecords!.requestMetrics!.records;
    const byFinish: Record<string, number> = {};
    for (const r of records) byFinish[r.finishType!] = (byFinish[r.finishType!] ?? 0) + 1;
    expect(byFinish).toEqual(expected.records_by_finish_reason_type);
    expect(records.filter((r) => (r.cachedTokens ?? 0) > 0)).toHaveLength(
      expected.records_with_cache_hits,
    );
    expect(records.filter((r) => (r.cachedHost ?? 0) > 0)).toHaveLength(
      Object.keys(expected.records_with_host_cache_hits).length,
    );
    expect(records.filter((r) => r.retractions! > 0)).toHaveLength(
      Object.keys(expected.records_with_retractions).length,
    );
    // every record a row with its request span, on the run's clock
    expect(trace.rows).toHaveLength(65);
    expect(records.every((r) => r.receivedSec! < r.finishedSec!)).toBe(true);
  });

  it('keeps request_parameters on disk; details parse it: its rid is the record id, its input_ids the prompt', () => {
    const trace = open(text);
    const records = trace.runRecords!.requestMetrics!.records;
    let ridEqualsId = 0;
    let withInputIds = 0;
    records.forEach((record, rowId) => {
      const whole = trace.samples.read(rowId, noBytes) as Record<string, unknown>;
      const params = whole.request_parameters as { rid: string; input_ids: number[] };
      if (params.rid === record.rid) ridEqualsId++;
      if (params.input_ids.length === record.promptTokens) withInputIds++;
    });
    expect(ridEqualsId).toBe(expected.request_parameters.rid_equals_id);
    expect(withInputIds).toBe(expected.request_parameters.with_input_ids);
  });

  it('recognises a first line longer than the 64 KiB sniff head', () => {
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    const params = JSON.parse(first.request_parameters as string) as { input_ids: number[] };
    params.input_ids = Array.from({ length: 30_000 }, (_, k) => 100_000 + k);
    first.request_parameters = JSON.stringify(params);
    const long = JSON.stringify(first);
    expect(long.length).toBeGreaterThan(128 * 1024);
    const body = [long, ...lines.slice(1)].join('\n') + '\n';
    const head = new TextEncoder().encode(body).subarray(0, 64 * 1024);
    expect(findFormat(head, 'x.log', body.length)?.id).toBe('sglang-request-metrics');
    const trace = open(body);
    expect(trace.summary.samples).toBe(65);
    const whole = trace.samples.read(0, (use) =>
      use(bytesSource(NAME, new TextEncoder().encode(body))),
    ) as {
      request_parameters: { input_ids: number[] };
    };
    expect(whole.request_parameters.input_ids).toHaveLength(30_000);
  });

  it('skips and counts a cut-off last line', () => {
    const body = text.slice(0, text.length - 1 - Math.floor(lines[64].length / 2));
    const trace = open(body);
    expect(trace.summary.samples).toBe(64);
    expect(trace.summary.skippedLines.count).toBe(1);
    expect(trace.summary.skippedLines.examples[0].reason).toMatch(
      /^request-metrics\/cut-off: sglang-request-metrics-20260825_09\.log line 65:/,
    );
  });

  it('names a line that is not JSON and one whose request_parameters is no string; the rest opens', () => {
    const body = [
      ...lines.slice(0, 2),
      '{"request_parameters": "{\\"rid\\": \\"x\\"}", "id": ',
      '{"request_parameters": {"rid": "y"}, "id": "y"}',
      ...lines.slice(2),
    ].join('\n');
    const trace = open(body + '\n');
    expect(trace.summary.samples).toBe(65);
    expect(trace.summary.skippedLines.count).toBe(2);
    const [notJson, notString] = trace.summary.skippedLines.examples;
    expect(notJson.line).toBe(3);
    expect(notJson.reason).toMatch(
      /^request-metrics\/not-json: sglang-request-metrics-20260825_09\.log line 3: not JSON/,
    );
    expect(notString.line).toBe(4);
    expect(notString.reason).toBe(
      'request-metrics/bad-request-parameters: sglang-request-metrics-20260825_09.log line 4: request_parameters is object, not a JSON string',
    );
  });

  it('shows a request_parameters string that is not JSON as its text, with a coded error', () => {
    const record = JSON.parse(lines[0]) as Record<string, unknown>;
    record.request_parameters = '{"rid": cut';
    const body = JSON.stringify(record) + '\n';
    const trace = open(body);
    const whole = trace.samples.read(0, (use) =>
      use(bytesSource(NAME, new TextEncoder().encode(body))),
    ) as Record<string, unknown>;
    expect(whole.request_parameters).toBe('{"rid": cut');
    expect(whole.request_parameters_error).toMatch(
      /^request-metrics\/bad-request-parameters: sglang-request-metrics-20260825_09\.log line 1:/,
    );
  });

  it('opens an hourly set as one trace, oldest first, each record read again from its own file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'request-metrics-'));
    const files = ['sglang-request-metrics-20260825_08.log', NAME].map((n) => join(dir, n));
    writeFileSync(files[0], lines.slice(0, 20).join('\n') + '\n');
    writeFileSync(files[1], lines.slice(20).join('\n') + '\n');
    writeFileSync(join(dir, 'other.log'), 'not a record\n');
    expect(siblingFiles('sglang-request-metrics', files[1])).toEqual(files);
    expect(siblingFiles('sglang-request-metrics', dir)).toEqual(files);
    const sources = files.map((f) => openFileSource(f));
    try {
      const trace = openTraceFile(sources);
      expect(trace.summary.samples).toBe(65);
      const records = trace.runRecords!.requestMetrics!.records;
      expect(records.map((r) => r.rid)).toEqual(
        lines.map((l) => (JSON.parse(l) as { id: string }).id),
      );
      // record 30 is line 11 of the second file
      const whole = trace.samples.read(30, (use) => use(sources[0])) as { id: string };
      expect(whole.id).toBe(records[30].rid);
    } finally {
      for (const s of sources) s.close();
    }
  });
});
