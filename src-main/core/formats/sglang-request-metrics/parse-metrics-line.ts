import type { RequestMetricsRecord } from '../../model/run-records';
import { firstKeyIsRequestParameters, skipSpaces } from './sniff-request-metrics';
import { ScanError, metaWithoutLists } from './meta-without-lists';
import { parsePythonJson } from './python-json';
import { stringEnd } from './string-end';

/** One line's fields besides `request_parameters`, and where that string's bytes lie. */
export interface MetricsLine {
  meta: Record<string, unknown>;
  /** the string's bytes inside the line, quotes excluded; null when found by a whole parse */
  params: { start: number; end: number } | null;
}

/** A line that is not a record: its code and why. */
export class LineError {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {}
}

const decoder = new TextDecoder();

/**
 * One line of FileRequestMetricsExporter. `request_parameters` (a JSON string holding the whole
 * request, prompt included: most of the line) is walked past, not decoded or parsed: only its
 * byte range is kept, for details. The rest (meta_info's keys) is parsed as JSON, its lists
 * (per-token log-probs) walked past too: details read them from the file.
 */
export function parseMetricsLine(line: Uint8Array): MetricsLine | LineError {
  if (firstKeyIsRequestParameters(line, 0)) {
    let i = skipSpaces(line, line.indexOf(0x3a) + 1);
    if (line[i] !== 0x22) return wholeLine(line); // not a string: the whole parse says what
    const start = i + 1;
    const end = stringEnd(line, start);
    if (end < 0) return new LineError('request-metrics/not-json', 'not JSON (a string never ends)');
    i = skipSpaces(line, end + 1);
    let text: string | ScanError;
    if (line[i] === 0x2c) text = metaWithoutLists(line, i + 1);
    else if (line[i] === 0x7d && skipSpaces(line, i + 1) === line.length) text = '{}';
    else return new LineError('request-metrics/not-json', 'not JSON after request_parameters');
    if (text instanceof ScanError)
      return new LineError('request-metrics/not-json', `not JSON (${text.reason})`);
    const meta = parseObject(text);
    return meta instanceof LineError ? meta : { meta, params: { start, end } };
  }
  return wholeLine(line);
}

function wholeLine(line: Uint8Array): MetricsLine | LineError {
  const meta = parseObject(decoder.decode(line));
  if (meta instanceof LineError) return meta;
  const params = meta.request_parameters;
  if (params !== undefined && typeof params !== 'string')
    return new LineError(
      'request-metrics/bad-request-parameters',
      `request_parameters is ${params === null ? 'null' : Array.isArray(params) ? 'a list' : typeof params}, not a JSON string`,
    );
  delete meta.request_parameters;
  return { meta, params: null };
}

function parseObject(text: string): Record<string, unknown> | LineError {
  let value: unknown;
  try {
    value = parsePythonJson(text);
  } catch (error) {
    return new LineError('request-metrics/not-json', `not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return new LineError('request-metrics/not-an-object', 'not a JSON object');
  return value as Record<string, unknown>;
}

/** A record's fields from its meta_info keys; a LineError without an `id`. */
export function metricsRecord(
  meta: Record<string, unknown>,
  rowId: number,
): Omit<RequestMetricsRecord, never> | LineError {
  const rid = meta.id;
  if (typeof rid !== 'string' || rid === '')
    return new LineError('request-metrics/no-id', 'no request id ("id")');
  const finish = meta.finish_reason;
  const details = meta.cached_tokens_details;
  const detail = (key: string) =>
    details !== null && typeof details === 'object'
      ? num((details as Record<string, unknown>)[key])
      : null;
  const version = meta.weight_version;
  return {
    rowId,
    rid,
    finishType:
      typeof finish === 'string'
        ? finish
        : finish !== null &&
            typeof finish === 'object' &&
            typeof (finish as { type?: unknown }).type === 'string'
          ? (finish as { type: string }).type
          : null,
    promptTokens: num(meta.prompt_tokens),
    completionTokens: num(meta.completion_tokens),
    cachedTokens: num(meta.cached_tokens),
    cachedDevice: detail('device'),
    cachedHost: detail('host'),
    // HiCache's L3 tier: written (with `storage_backend`) only when the server has storage
    cachedStorage: detail('storage'),
    // `total_retractions` until sglang renamed it; neither (an older sglang): unknown
    retractions: num(meta.num_retractions) ?? num(meta.total_retractions),
    dpRank: num(meta.dp_rank),
    weightVersion:
      typeof version === 'string' ? version : typeof version === 'number' ? String(version) : null,
    queueSec: num(meta.queue_time),
    e2eSec: num(meta.e2e_latency),
    inferenceSec: num(meta.inference_time),
    receivedSec: num(meta.request_received_ts),
    finishedSec: num(meta.request_finished_ts),
  };
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
