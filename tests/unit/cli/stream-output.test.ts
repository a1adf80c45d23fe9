import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { writeChunks } from '../../../src-main/cli/write-chunks';
import { writeJsonStreaming } from '../../../src-main/cli/write-json';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { perfettoJsonChunks } from '../../../src-main/core/export/perfetto-export';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';

/** A sink keeping each write, to see how large the largest one was. */
function sink() {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    out,
    text: () => chunks.join(''),
    largest: () => Math.max(...chunks.map((c) => c.length)),
  };
}

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'span', name: `op ${i}`, lane: 0, attrs: { i } }));

describe('rows and exports are written in pieces, whatever one row holds (issue 49 case 5)', () => {
  it("rows given one at a time (a generator), each row's items one at a time: the bytes of JSON.stringify", async () => {
    const rows = [
      { row_id: 0, items: items(3), skip: undefined },
      { row_id: 1, items: [], nested: { a: [1, 2] } },
    ];
    const envelope = { cache_version: 1, global_start: null, rows };
    const { out, text } = sink();
    await writeJsonStreaming(out, {
      ...envelope,
      rows: (function* () {
        yield* rows;
      })(),
    });
    expect(text()).toBe(`${JSON.stringify(envelope)}\n`);
  });

  it('one row of 200,000 items never goes out as one string', async () => {
    const envelope = { rows: [{ row_id: 0, items: items(200_000) }] };
    const { out, text, largest } = sink();
    await writeJsonStreaming(out, envelope);
    expect(text().length).toBe(JSON.stringify(envelope).length + 1);
    // chunks of about 1 MiB: the row alone is about 12 MB of JSON
    expect(largest()).toBeLessThan(2 * 1024 * 1024);
  });

  it('the Perfetto export of a one-process trace comes in chunks of about 1 MiB', () => {
    const events = Array.from({ length: 100_000 }, (_, i) =>
      JSON.stringify({ ph: 'X', name: `op ${i % 13}`, pid: 1, tid: 1, ts: i * 10, dur: 8 }),
    );
    const json = `{"traceEvents":[${events.join(',')}]}`;
    const trace = openTraceFile([bytesSource('one.json', new TextEncoder().encode(json))]);
    expect(trace.rows.length).toBe(1);
    const chunks = [
      ...perfettoJsonChunks([{ name: 'one.json', rows: trace.rows, globalStart: 0 }]),
    ];
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(1.1 * 1024 * 1024);
  });

  it('an export that fails half-way removes the file it began', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-export-'));
    const output = join(dir, 'out.json');
    writeFileSync(output, 'an older export');
    function* failing() {
      yield '{"traceEvents":[';
      throw new RangeError('Maximum call stack size exceeded');
    }
    await expect(writeChunks(failing(), output, false)).rejects.toThrow('Maximum call stack');
    expect(existsSync(output)).toBe(false);
    await expect(writeChunks(failing(), `${output}.gz`, true)).rejects.toThrow();
    expect(existsSync(`${output}.gz`)).toBe(false);
  });
});
