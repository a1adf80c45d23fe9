import { basename } from 'node:path';
import type { RunFileDigest } from '../core/model/run';
import type { TrendPoint } from '../core/model/trend';
import type { OpenOptions } from '../core/open/open-trace-file';
import { runDigestOfFigures } from '../core/run/run-digest';
import { trendFigures } from '../core/trends/trend-figures';
import { ingestFigures } from '../ingest/open-sources';

/**
 * One dump's trend point, read without a store; with its run digest when `digest` (a run whose
 * train dumps or request metrics join to its samples): the joins then take the dump as read
 * here instead of opening it a second time.
 */
export function readTrendDump(
  path: string,
  options: { digest?: boolean; onProgress?: OpenOptions['onProgress'] } = {},
): { point: TrendPoint; digest?: RunFileDigest } {
  const trace = ingestFigures(path, { onProgress: options.onProgress });
  const point = trendFigures({ path, name: basename(path), ...trace });
  return options.digest ? { point, digest: runDigestOfFigures(trace) } : { point };
}
