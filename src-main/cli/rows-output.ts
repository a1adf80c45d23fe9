import { basename } from 'node:path';
import { readSlimeDump } from '../core/formats/slime/read-slime-dump';
import { buildSlimeCache } from '../core/rows/slime-cache';
import { ingest, openPathSource, toFileError } from '../ingest/open-sources';
import type { OpenOptions, OpenedTrace } from '../core/open/open-trace-file';
import type { Row, SlimeCache } from '../core/model/row';

/**
 * `rows FILE`: a dump's rows exactly as slime's viewer caches them (slime's fresh-lane PD rule,
 * no fields of ours); any other trace's rows in the same envelope, with their fields.
 */
export function buildRowsJson(
  paths: string[],
  format: string,
  options: OpenOptions = {},
): SlimeCache {
  const path = paths[0];
  if (format === 'slime') {
    let source;
    try {
      source = openPathSource(path);
      const dump = readSlimeDump(source, {
        onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
      });
      return buildSlimeCache(dump, path, Date.now() / 1000);
    } catch (error) {
      throw fileError(path, error);
    } finally {
      source?.close();
    }
  }
  let trace: OpenedTrace;
  try {
    trace = ingest({ sources: paths.map((p) => ({ kind: 'path', path: p })) }, options);
  } catch (error) {
    throw fileError(path, error);
  }
  return rowsEnvelope(path, trace.summary.samples, trace.rows);
}

function rowsEnvelope(path: string, sampleCount: number, rows: Row[]): SlimeCache {
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
    rows,
  };
}

/** Any failure to open `path`, as the one-line coded error every command prints. */
export function fileError(path: string, error: unknown): Error {
  const detail = toFileError(error);
  return new Error(`${path}: ${detail.message} [${detail.code}]`, { cause: basename(path) });
}
