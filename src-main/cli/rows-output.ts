import { basename } from 'node:path';
import { FORMATS, findFormat, sniffHeadAt } from '../core/formats/registry';
import { gunzipIfGzip } from '../core/bytes/gunzip-source';
import { ingest, openPathSource, toFileError } from '../ingest/open-sources';
import type { OpenOptions, OpenedTrace } from '../core/open/open-trace-file';
import type { PackedRow, Row, SlimeCache } from '../core/model/row';
import { unpackRow } from '../core/rows/packed-items';

/**
 * `rows FILE`: the rows in the cache its format's own tools write, where it has one (a slime
 * dump exactly as slime's viewer caches it: slime's fresh-lane PD rule, no fields of ours); any
 * other trace's rows in the same envelope, with their fields.
 */
export function buildRowsJson(paths: string[], options: OpenOptions = {}): SlimeCache {
  const json = rowsJsonOf(paths, options);
  return { ...json, rows: [...json.rows] };
}

/** buildRowsJson's envelope, its rows unpacked one at a time as they are written (the CLI's). */
export function rowsJsonOf(paths: string[], options: OpenOptions = {}): RowsJson {
  const path = paths[0];
  let source;
  try {
    source = openPathSource(path);
    const content = gunzipIfGzip(source);
    const format = findFormat(
      sniffHeadAt(content),
      content.name,
      content.size,
      options.formats ?? FORMATS,
    );
    if (format?.rowsCache) {
      return format.rowsCache(content, path, Date.now() / 1000, {
        onProgress: options.onProgress,
      }) as SlimeCache;
    }
  } catch (error) {
    throw fileError(path, error);
  } finally {
    source?.close();
  }
  let trace: OpenedTrace;
  try {
    trace = ingest({ sources: paths.map((p) => ({ kind: 'path', path: p })) }, options);
  } catch (error) {
    throw fileError(path, error);
  }
  return rowsEnvelope(path, trace.summary.samples, trace.rows);
}

/** slime's cache, whose rows may come one at a time (each unpacked as it is written) */
export type RowsJson = Omit<SlimeCache, 'rows'> & { rows: SlimeCache['rows'] | Generator<Row> };

function rowsEnvelope(path: string, sampleCount: number, rows: PackedRow[]): RowsJson {
  let start = Infinity;
  let end = -Infinity;
  for (const row of rows) {
    start = Math.min(start, row.start);
    end = Math.max(end, row.end);
  }
  return {
    cache_version: 1,
    pt_path: path,
    generated_at: Date.now() / 1000,
    sample_count: sampleCount,
    global_start: rows.length > 0 ? start : null,
    global_end: rows.length > 0 ? end : null,
    // unpacked one at a time as they are written: all of them at once are the file again
    rows: (function* () {
      for (const row of rows) yield unpackRow(row);
    })(),
  };
}

/** Any failure to open `path`, as the one-line coded error every command prints. */
export function fileError(path: string, error: unknown): Error {
  const detail = toFileError(error);
  return new Error(`${path}: ${detail.message} [${detail.code}]`, { cause: basename(path) });
}
