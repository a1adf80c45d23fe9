import type { AnswerPart, FileSummary, RunResult } from '../api/trace-api';
import type { RunRolloutFigures, RunSampleFigures } from '../model/run-extra';
import { runFileIndex } from '../model/run-file-index';
import { decodeSecPerToken } from '../model/group-extra-figures';
import { rolloutExtraStats } from '../model/rollout-extra-stats';
import { pct } from './compare-answer';

/**
 * What a run's train dump and request-metrics log say of one compared rollout (docs/run-extra.md):
 * its figures there, and its samples' (their rows in the rollout's file). Present only when the
 * compared file is a rollout dump of an open run holding those files.
 */
export interface CompareExtra {
  rollout: RunRolloutFigures;
  samples: RunSampleFigures[];
}

/**
 * The run figures of `file` when `run` holds it (runFileIndex) as a rollout dump joined to a
 * train dump or request metrics; null otherwise.
 */
export function compareExtraOf(
  run: {
    files: readonly { file: Pick<FileSummary, 'fileId' | 'path'> }[];
    joins: Pick<RunResult['joins'], 'extra'>;
  },
  file: Pick<FileSummary, 'fileId' | 'path'>,
): CompareExtra | null {
  const at = runFileIndex(run.files, file);
  const extra = run.joins.extra;
  const rollout = extra?.rollouts.find((r) => r.file === at);
  if (at < 0 || !extra || !rollout) return null;
  return { rollout, samples: extra.samples.filter((s) => s.file === at) };
}

/**
 * The figures table's keys from the run: the servers' decode time per output token (over the
 * samples' records), then the rollout's own (rolloutExtraStats: prefix-cache hits, retractions,
 * mismatch, token staleness, as the trends view plots them); a side without the file has none.
 */
export function extraStats(extra: CompareExtra): Record<string, number> {
  const decode = decodeSecPerToken(extra.samples);
  return {
    ...(decode === null ? {} : { 'requests/decode_per_token_sec': decode }),
    ...rolloutExtraStats(extra.rollout),
  };
}

/** The rows behind a run figure that counts samples: retracted, ratio outside, stale. */
export function extraRows(extra: CompareExtra | null, key: string): Int32Array | undefined {
  if (extra === null) return undefined;
  const pick = ROWS_OF[key];
  return pick && Int32Array.from(rowsWhere(extra, pick));
}

const ROWS_OF: Record<string, (s: RunSampleFigures) => boolean> = {
  'requests/retractions': retracted,
  'requests/retracted_pct': retracted,
  'train/ratio_outside_pct': ratioOutside,
  'staleness/stale_token_pct': stale,
};

function retracted(s: RunSampleFigures): boolean {
  return (s.retractions ?? 0) > 0;
}
function ratioOutside(s: RunSampleFigures): boolean {
  return (s.train?.mismatch?.outsideShare ?? 0) > 0;
}
function stale(s: RunSampleFigures): boolean {
  return (s.staleness?.staleTokens ?? 0) > 0;
}

function rowsWhere(extra: CompareExtra, test: (s: RunSampleFigures) => boolean): number[] {
  return extra.samples.filter(test).map((s) => s.rowId);
}

/**
 * The answer's sentences from the run, when both sides have its files: decode speed per token,
 * retractions, prefix-cache hits, train/inference mismatch and staleness, each said only when
 * it moved (or, for retractions and staleness, when either side has any), the samples linked.
 */
export function extraSentences(a: CompareExtra | null, b: CompareExtra | null): AnswerPart[][] {
  if (a === null || b === null) return [];
  return [
    decodeSentence(a, b),
    retractionSentence(a, b),
    cacheSentence(a, b),
    mismatchSentence(a, b),
    stalenessSentence(a, b),
  ].filter((s): s is AnswerPart[] => s !== null);
}

/** a relative move below this is not worth a sentence (compare's noise rule: 5%) */
const MOVED = 0.05;

function decodeSentence(a: CompareExtra, b: CompareExtra): AnswerPart[] | null {
  const da = decodeSecPerToken(a.samples);
  const db = decodeSecPerToken(b.samples);
  if (da === null || db === null || da === 0) return null;
  const rel = (db - da) / da;
  if (Math.abs(rel) < MOVED) return null;
  return [
    {
      text: `B's decode was ${pct(Math.abs(rel))} ${rel > 0 ? 'slower' : 'faster'} per token (${ms(db)} vs ${ms(da)} per output token: the servers' inference_time over completion tokens).`,
    },
  ];
}

function retractionSentence(a: CompareExtra, b: CompareExtra): AnswerPart[] | null {
  const ra = a.rollout.requestMetrics;
  const rb = b.rollout.requestMetrics;
  // unknown on either side (an older sglang's log): nothing to say, not "0 against N"
  if (!ra || !rb || ra.retractedRecords === null || rb.retractedRecords === null) return null;
  if (ra.retractedRecords === 0 && rb.retractedRecords === 0) return null;
  return [
    linked(
      `${pct(rb.retractedRecords / rb.retractionRecords)} of B's requests`,
      'b',
      rowsWhere(b, retracted),
    ),
    { text: ' were retracted at least once, against ' },
    linked(`${pct(ra.retractedRecords / ra.retractionRecords)} in A`, 'a', rowsWhere(a, retracted)),
    { text: ` (${rb.retractions} retractions in B, ${ra.retractions} in A).` },
  ];
}

function cacheSentence(a: CompareExtra, b: CompareExtra): AnswerPart[] | null {
  const ra = a.rollout.requestMetrics;
  const rb = b.rollout.requestMetrics;
  if (!ra || !rb || ra.cacheHitRate === null || rb.cacheHitRate === null) return null;
  if (Math.abs(rb.cacheHitRate - ra.cacheHitRate) < 0.01) return null;
  // the hits not from GPU memory: HiCache's host memory and its storage tier
  const host = (r: NonNullable<RunRolloutFigures['requestMetrics']>) => {
    if (r.cachedTokens <= 0) return '';
    const parts = [
      r.cachedHost > 0 ? `${pct(r.cachedHost / r.cachedTokens)} from host memory` : null,
      r.cachedStorage > 0 ? `${pct(r.cachedStorage / r.cachedTokens)} from storage` : null,
    ].filter((p) => p !== null);
    return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
  };
  return [
    {
      text: `The prefix cache served ${pct(rb.cacheHitRate)} of B's prompt tokens${host(rb)}, against ${pct(ra.cacheHitRate)} of A's${host(ra)}.`,
    },
  ];
}

function mismatchSentence(a: CompareExtra, b: CompareExtra): AnswerPart[] | null {
  const ma = a.rollout.mismatch;
  const mb = b.rollout.mismatch;
  if (!ma || !mb) return null;
  const rel = ma.meanAbsDelta > 0 ? (mb.meanAbsDelta - ma.meanAbsDelta) / ma.meanAbsDelta : null;
  const outsideMoved = mb.outsideShare !== ma.outsideShare;
  if ((rel === null || Math.abs(rel) < MOVED) && !outsideMoved) return null;
  return [
    {
      text: `The trainer's log-probs differed from the server's by ${nats(mb.meanAbsDelta)} per loss-masked token in B (max ${nats(mb.maxAbsDelta)}), against ${nats(ma.meanAbsDelta)} in A (max ${nats(ma.maxAbsDelta)}); `,
    },
    linked(`${pct(mb.outsideShare)} of B's tokens`, 'b', rowsWhere(b, ratioOutside)),
    // TokenMismatch.outsideShare's range (what TIS/MIS corrections clip)
    { text: ' had an importance ratio outside [0.5, 2], against ' },
    linked(`${pct(ma.outsideShare)} of A's`, 'a', rowsWhere(a, ratioOutside)),
    { text: '.' },
  ];
}

function stalenessSentence(a: CompareExtra, b: CompareExtra): AnswerPart[] | null {
  const sa = a.rollout.staleness;
  const sb = b.rollout.staleness;
  if (!sa || !sb || (sa.max === 0 && sb.max === 0)) return null;
  const age = (s: NonNullable<RunRolloutFigures['staleness']>) =>
    `${s.mean.toFixed(2)} weight versions (max ${s.max})`;
  return [
    {
      text: `B's tokens were ${age(sb)} behind its trainer on average, A's ${age(sa)}: `,
    },
    linked(`${pct(sb.staleFraction)} of B's tokens`, 'b', rowsWhere(b, stale)),
    { text: ' were stale, against ' },
    linked(`${pct(sa.staleFraction)} of A's`, 'a', rowsWhere(a, stale)),
    { text: '.' },
  ];
}

/** a part linking to its side's rows, plain text when there are none */
function linked(text: string, side: 'a' | 'b', rowIds: number[]): AnswerPart {
  return rowIds.length > 0 ? { text, side, rowIds } : { text };
}

function ms(sec: number): string {
  return `${(sec * 1e3).toFixed(2)} ms`;
}

function nats(value: number): string {
  return value.toPrecision(3);
}
