import { readFileSync } from 'node:fs';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bytesSource, type ByteSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { exportTraceStream } from '../../../src-main/core/export/export-trace';
import { streamPerfettoExport } from '../../../src-main/core/export/stream-perfetto-export';
import type { FormatDescriptor, RowSink } from '../../../src-main/core/formats/format-descriptor';
import { FORMATS, type FormatList } from '../../../src-main/core/formats/registry';
import type { Row } from '../../../src-main/core/model/row';
import { findTraceFormat, openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { FIXTURES, OTLP, SLIME, readManifest } from '../../support/fixtures';

// Issue 18's export goal: a dump's Perfetto export made one row at a time, in two reads of the
// file, with the bytes of the whole-file export (exportTraceStream over openTraceFile's rows).

/** Every slime dump the fixture manifest says opens (15: README and manifest.json). */
const dumps = readManifest()
  .inputs.filter((input) => input.file.startsWith('slime/') && input.opens !== undefined)
  .map((input) => ({ name: input.file.split('/').pop()!, path: resolve(FIXTURES, input.file) }));

const source = (path: string, name = path.split('/').pop()!): ByteSource =>
  bytesSource(name, new Uint8Array(readFileSync(path)));

/** Today's export: the file opened whole, then its rows streamed out (what the UI saves). */
function wholeFileExport(file: ByteSource): string {
  const trace = openTraceFile([file]);
  return [...exportTraceStream(trace, 'perfetto', 'x.json').chunks].join('');
}

/** The streamed export into a string, with when its target was opened. */
function streamedExport(files: ByteSource[], formats: FormatList = FORMATS, chunkChars?: number) {
  const events: string[] = [];
  let text = '';
  const exported = streamPerfettoExport(
    files,
    {
      open: () => events.push(`open after ${text.length} chars`),
      write: (chunk) => {
        text += chunk;
        events.push('write');
      },
    },
    { formats, chunkChars },
  );
  return { exported, text, events };
}

/** The format that reads `path` (found by sniffing, as the app does: no id named here). */
const formatOf = (path: string) => findTraceFormat([source(path)]).format;

/** `format`, claiming only files named *.<suffix>, with its streamRows replaced. */
function variant(
  format: FormatDescriptor,
  suffix: string,
  streamRows: (read: number, sources: ByteSource[], sink: RowSink) => void,
): FormatDescriptor {
  let reads = 0;
  return {
    ...format,
    id: `test-${suffix}`,
    sniff: (_head, name) => name.endsWith(`.${suffix}`),
    streamRows: (sources, _options, sink) => streamRows(++reads, sources, sink),
  };
}

describe('streamed Perfetto export', () => {
  it('covers the 16 slime dumps the manifest opens', () => {
    expect(dumps.map((d) => d.name)).toHaveLength(16);
  });

  for (const dump of dumps) {
    it(`${dump.name}: the whole-file export's bytes, one row at a time`, () => {
      const streamed = streamedExport([source(dump.path)]);
      expect(streamed.exported).toBe(true);
      expect(streamed.text).toBe(wholeFileExport(source(dump.path)));
      // the target opened once, after the first read and before anything was written
      expect(streamed.events[0]).toBe('open after 0 chars');
      expect(streamed.events.filter((e) => e.startsWith('open'))).toHaveLength(1);
    });
  }

  it('streamRows gives open’s rows, in open’s order, for every dump', () => {
    for (const dump of dumps) {
      const format = formatOf(dump.path);
      const rows: Row[] = [];
      format.streamRows!([source(dump.path)], {}, { row: (r) => rows.push(r), restart: () => {} });
      expect(rows, dump.name).toEqual(openTraceFile([source(dump.path)]).rows.map(unpackRow));
    }
  });

  it('small chunks give the same bytes (rows written as they come, not at the end)', () => {
    const path = resolve(SLIME, 'rollout_agentic.pt');
    const streamed = streamedExport([source(path)], FORMATS, 1000);
    expect(streamed.text).toBe(wholeFileExport(source(path)));
    // rollout_agentic.pt's 16 rows: more than one write before the end
    expect(streamed.events.filter((e) => e === 'write').length).toBeGreaterThan(10);
  });

  it('a gzipped dump: inflated once, named as opening names it, the same bytes', () => {
    const bytes = gzipSync(readFileSync(resolve(SLIME, 'rollout_pd_legacy.pt')));
    const gz = () => bytesSource('rollout_pd_legacy.pt.gz', bytes);
    const streamed = streamedExport([gz()]);
    expect(streamed.exported).toBe(true);
    expect(streamed.text).toBe(wholeFileExport(gz()));
  });

  it('a format without streamRows (OTLP) is not streamed: nothing opened, nothing written', () => {
    const streamed = streamedExport([source(resolve(OTLP, 'roll_traces.1.jsonl'))]);
    expect(streamed).toEqual({ exported: false, text: '', events: [] });
  });

  it('a broken dump fails in the first read with its own code, before the target opens', () => {
    let error: unknown = null;
    let opened = false;
    try {
      streamPerfettoExport([source(resolve(SLIME, 'truncated.pt'))], {
        open: () => (opened = true),
        write: () => {},
      });
    } catch (caught) {
      error = caught;
    }
    // the manifest's code for truncated.pt
    expect((error as FormatError).code).toBe('zip/eocd-not-found');
    expect(opened).toBe(false);
  });

  describe('rows that start over, or differ between the reads', () => {
    const path = resolve(SLIME, 'rollout_small.pt');
    const slime = formatOf(path);
    const read = (sources: ByteSource[], sink: RowSink) => slime.streamRows!(sources, {}, sink);
    const named = (suffix: string) => source(path, `rollout_small.${suffix}`);

    it('a restart in the first read: not streamed (the caller opens the file whole)', () => {
      const format = variant(slime, 'restarts', (n, sources, sink) => {
        if (n === 1) {
          read(sources, sink);
          sink.restart();
        }
        read(sources, sink);
      });
      const streamed = streamedExport([named('restarts')], [format, ...FORMATS]);
      expect(streamed).toEqual({ exported: false, text: '', events: [] });
    });

    it('a restart in the second read only: export/file-changed', () => {
      const format = variant(slime, 'restarts2', (n, sources, sink) => {
        if (n === 2) sink.restart();
        read(sources, sink);
      });
      expect(() => streamedExport([named('restarts2')], [format, ...FORMATS])).toThrow(
        expect.objectContaining({ code: 'export/file-changed' }),
      );
    });

    it('fewer rows in the second read: export/file-changed, naming both counts', () => {
      const format = variant(slime, 'shrinks', (n, sources, sink) => {
        let given = 0;
        read(sources, {
          row: (row) => {
            // rollout_small.pt has 16 rows (its README); the second read gives 15
            if (n === 1 || ++given < 16) sink.row(row);
          },
          restart: () => sink.restart(),
        });
      });
      expect(() => streamedExport([named('shrinks')], [format, ...FORMATS])).toThrow(
        'the file changed while it was exported: 15 rows on the second read, 16 on the first',
      );
    });
  });
});
