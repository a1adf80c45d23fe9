import type { AnswerPart } from '../api/trace-api';
import type { BoundingSample, RolloutFigures, WallTimeCategory } from '../model/rollout-figures';
import { WALL_TIME_CATEGORIES } from '../model/rollout-figures';

/** What the answer reads of a rollout: everything but its per-group and per-row lists. */
type AnswerFigures = Omit<RolloutFigures, 'groups' | 'responseLengths'>;

/**
 * The compare view's first lines: why B took longer or shorter than A, in plain sentences whose
 * figures link to the rows behind them. The whole span first (slime's viewer span, where idle
 * time between a resumed sample's attempts hides), then the rollout's own window (what kept it
 * open), then B's stragglers.
 */
export function buildAnswer(a: AnswerFigures, b: AnswerFigures): AnswerPart[][] {
  const sentences: AnswerPart[][] = [];
  const idleA = a.breakdownWhole.seconds['idle between attempts'];
  const idleB = b.breakdownWhole.seconds['idle between attempts'];
  if (idleA > 0 || idleB > 0) sentences.push(wholeSentence(a, b));
  sentences.push(...ownSentence(a, b, idleA > 0 || idleB > 0));
  if (b.stragglers) {
    const s = b.stragglers;
    sentences.push([
      { text: 'In B, ' },
      {
        text: `the last ${s.sampleCount} sample${s.sampleCount === 1 ? '' : 's'} (${pct(s.sampleShare)})`,
        side: 'b',
        rowIds: s.rowIds,
      },
      {
        text: ` kept the rollout open for ${pct(s.wallShare)} of its own wall time (${sec(s.tailSec)} of ${sec(s.window.durationSec)}).`,
      },
    ]);
  }
  return sentences;
}

function wholeSentence(a: AnswerFigures, b: AnswerFigures): AnswerPart[] {
  const diff = b.whole.durationSec - a.whole.durationSec;
  const parts: AnswerPart[] = [
    {
      text: `B took ${sec(Math.abs(diff))} ${diff >= 0 ? 'longer' : 'less'} than A over the whole file as slime's viewer spans it (${sec(b.whole.durationSec)} vs ${sec(a.whole.durationSec)}): `,
    },
  ];
  const clauses = (['b', 'a'] as const).flatMap((side) => {
    const r = side === 'a' ? a : b;
    const idle = r.breakdownWhole.seconds['idle between attempts'];
    if (idle <= 0) return [];
    const earlier = r.breakdownWhole.seconds['earlier attempts'];
    const from = [...new Set(r.resumed.map((x) => x.startRolloutId))].sort((x, y) => x - y);
    const n = r.resumed.length;
    return [
      [
        {
          text: `${sec(idle)}${side === 'a' ? ' of A' : ''} are idle time before the second attempts of `,
        },
        {
          text: `${n} sample${n === 1 ? '' : 's'} resumed from rollout${from.length === 1 ? '' : 's'} ${from.join(', ')}`,
          side,
          rowIds: r.resumed.map((x) => x.rowId),
        },
        { text: ` and ${sec(earlier)} their earlier attempts there` },
      ] satisfies AnswerPart[],
    ];
  });
  clauses.forEach((clause, i) => {
    if (i > 0) parts.push({ text: '; ' });
    parts.push(...clause);
  });
  parts.push({ text: '.' });
  return parts;
}

function ownSentence(a: AnswerFigures, b: AnswerFigures, afterWhole: boolean): AnswerPart[][] {
  const diff = b.own.durationSec - a.own.durationSec;
  const rel = a.own.durationSec > 0 ? diff / a.own.durationSec : null;
  const change = `${diff >= 0 ? '+' : '−'}${sec(Math.abs(diff))}${rel === null ? '' : `, ${rel >= 0 ? '+' : '−'}${pct(Math.abs(rel))}`}`;
  const relText = rel === null ? '' : `, ${rel >= 0 ? '+' : '−'}${pct(Math.abs(rel))}`;
  const head = afterWhole
    ? `In its own window B took ${sec(b.own.durationSec)} against A's ${sec(a.own.durationSec)} (${change}).`
    : `B took ${sec(Math.abs(diff))} ${diff >= 0 ? 'longer' : 'less'} than A (${sec(b.own.durationSec)} vs ${sec(a.own.durationSec)}${relText}).`;
  const sentences: AnswerPart[][] = [[{ text: head }]];
  const bounding = b.breakdownOwn.bounding;
  if (bounding) sentences.push(boundingSentence(bounding));
  const moves = WALL_TIME_CATEGORIES.map((category: WallTimeCategory) => ({
    category,
    delta: b.breakdownOwn.seconds[category] - a.breakdownOwn.seconds[category],
  }))
    .filter((m) => Math.abs(m.delta) >= 0.01)
    // by size, then in the categories' order: the same order whichever file is A
    .sort(
      (x, y) =>
        Math.abs(y.delta) - Math.abs(x.delta) ||
        WALL_TIME_CATEGORIES.indexOf(x.category) - WALL_TIME_CATEGORIES.indexOf(y.category),
    )
    .slice(0, 3);
  if (moves.length > 0) {
    sentences.push([
      {
        text: `What kept each rollout open moved most in ${moves
          .map((m) => `${m.category} ${m.delta >= 0 ? '+' : '−'}${sec(Math.abs(m.delta))}`)
          .join(', ')}.`,
      },
    ]);
  }
  return sentences;
}

/**
 * "B was held open 48.7 s by the aborted request (sglang_generate) of sample #0 (group 0), which
 * never ended": what
 * ended B, in the glossary's words (aborted, unfinished, retried), the sample linked.
 */
function boundingSentence(s: BoundingSample): AnswerPart[] {
  const link: AnswerPart = {
    text: `sample #${String(s.sampleIndex)} (group ${String(s.groupIndex)})`,
    side: 'b',
    rowIds: [s.rowId],
  };
  const status = s.status ?? 'no status';
  const retried = s.attempt > 0 ? `, retried: attempt ${s.attempt + 1}` : '';
  const request = s.lastRequest;
  if (request && request.unfinished) {
    const how = s.status === 'aborted' ? 'aborted request' : 'unfinished request';
    return [
      { text: `B was held open ${sec(request.durationSec)} by the ${how} (${request.name}) of ` },
      link,
      { text: `, which never ended${retried}.` },
    ];
  }
  if (request) {
    return [
      { text: 'B ended with ' },
      link,
      {
        text: ` (${status}${retried}), the slowest of its last group, whose last request (${request.name}) took ${sec(request.durationSec)}.`,
      },
    ];
  }
  return [
    { text: 'B ended with ' },
    link,
    { text: ` (${status}${retried}), the slowest of its last group.` },
  ];
}

/** seconds as a person reads them: 3550 s, 58.3 s, 0.35 s */
export function sec(value: number): string {
  const abs = Math.abs(value);
  const text = abs >= 100 ? value.toFixed(0) : abs >= 1 ? value.toFixed(1) : value.toFixed(2);
  return `${text} s`;
}

/** a share as a percentage with one decimal: 0.314 -> 31.4% */
export function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
