import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN, RUN_EXTRA } from './run-extra-expected';
import { METRICS, metricLines } from './run-extra-run';

/**
 * run_extra's request-metrics log as a second run's server might have written it: every
 * request's `inference_time` times `slower` (decode slower per token by that much) and every
 * `retractEvery`-th request retracted `retractions` times. Edited in each line's own text (SGLang's
 * spacing and number formatting kept), so only those values differ from the fixture.
 */
export function editedMetricsLog({ slower = 1.3, retractEvery = 3, retractions = 2 } = {}): string {
  const out = metricLines.map((line, k) =>
    line
      .replace(
        /"inference_time": ([0-9.eE+-]+)/,
        (_, v: string) => `"inference_time": ${Number(v) * slower}`,
      )
      .replace(
        /"num_retractions": 0\b/,
        `"num_retractions": ${k % retractEvery === 0 ? retractions : 0}`,
      ),
  );
  return out.join('\n') + '\n';
}

/**
 * A run folder in `dir` as a user has one: tests/fixtures/run's files with run_extra's train
 * dumps beside them and a request-metrics log (`metricsText`; the fixture's when not given).
 */
export function writeRunFolder(dir: string, metricsText = metricLines.join('\n') + '\n'): string {
  cpSync(RUN, dir, { recursive: true });
  cpSync(join(RUN_EXTRA, 'train'), join(dir, 'train'), { recursive: true });
  mkdirSync(join(dir, 'sglang_request_metrics'), { recursive: true });
  writeFileSync(join(dir, METRICS), metricsText);
  return dir;
}
