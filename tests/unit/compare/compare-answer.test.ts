import { describe, expect, it } from 'vitest';
import { buildAnswer, sec } from '../../../src-main/core/compare/compare-answer';
import type { AnswerPart } from '../../../src-main/core/api/trace-api';
import { figures } from './hand-figures';

/**
 * The compare answer (core/compare/compare-answer.ts, issue 17) on rollout figures made by hand:
 * every number in an expected sentence can be read off the figures given to it.
 */
const plain = (sentence: AnswerPart[]) => sentence.map((p) => p.text).join('');
const links = (sentence: AnswerPart[]) => sentence.filter((p) => p.rowIds !== undefined);

describe('sec: seconds as a person reads them', () => {
  it('no decimals from 100 s, one from 1 s, two below', () => {
    expect(sec(3550.4)).toBe('3550 s');
    expect(sec(100)).toBe('100 s');
    expect(sec(99.94)).toBe('99.9 s');
    expect(sec(1)).toBe('1.0 s');
    expect(sec(0.994)).toBe('0.99 s');
    expect(sec(0)).toBe('0.00 s');
  });

  it('a negative value is rounded by its size and keeps its sign', () => {
    expect(sec(-150)).toBe('-150 s');
    expect(sec(-5)).toBe('-5.0 s');
    expect(sec(-0.5)).toBe('-0.50 s');
  });
});

describe('the whole-file sentence: idle time between attempts', () => {
  it('both sides idle: B’s clause first, then A’s, each linked to its resumed rows', () => {
    const a = figures({
      whole: 200,
      own: 150,
      resumed: [[3, 6]],
      whole_seconds: { 'idle between attempts': 45, 'earlier attempts': 0.5 },
    });
    const b = figures({
      whole: 300,
      own: 150,
      // two samples from rollout 6, one from rollout 5: rollouts listed once each, in order
      resumed: [
        [0, 6],
        [1, 5],
        [2, 6],
      ],
      whole_seconds: { 'idle between attempts': 120, 'earlier attempts': 12 },
    });
    const answer = buildAnswer(a, b);
    expect(answer).toHaveLength(2);
    expect(plain(answer[0])).toBe(
      "B took 100 s longer than A over the whole file as slime's viewer spans it (300 s vs 200 s): " +
        '120 s are idle time before the second attempts of 3 samples resumed from rollouts 5, 6 and 12.0 s their earlier attempts there; ' +
        '45.0 s of A are idle time before the second attempts of 1 sample resumed from rollout 6 and 0.50 s their earlier attempts there.',
    );
    expect(links(answer[0])).toEqual([
      { text: '3 samples resumed from rollouts 5, 6', side: 'b', rowIds: [0, 1, 2] },
      { text: '1 sample resumed from rollout 6', side: 'a', rowIds: [3] },
    ]);
    // after the whole-file sentence the own window is named as such
    expect(plain(answer[1])).toBe(
      "In its own window B took 150 s against A's 150 s (+0.00 s, +0.0%).",
    );
  });

  it('only A idle: B shorter over the whole file, one clause, and the own window follows', () => {
    const a = figures({
      whole: 90,
      own: 40,
      resumed: [
        [5, 2],
        [6, 2],
      ],
      whole_seconds: { 'idle between attempts': 30, 'earlier attempts': 20 },
    });
    const b = figures({ whole: 30, own: 30 });
    const answer = buildAnswer(a, b);
    expect(plain(answer[0])).toBe(
      "B took 60.0 s less than A over the whole file as slime's viewer spans it (30.0 s vs 90.0 s): " +
        '30.0 s of A are idle time before the second attempts of 2 samples resumed from rollout 2 and 20.0 s their earlier attempts there.',
    );
    expect(links(answer[0])).toEqual([
      { text: '2 samples resumed from rollout 2', side: 'a', rowIds: [5, 6] },
    ]);
    // 30 - 40 = -10 s, -10 / 40 = -25%
    expect(plain(answer[1])).toBe(
      "In its own window B took 30.0 s against A's 40.0 s (−10.0 s, −25.0%).",
    );
  });

  it('only B idle: one clause for B', () => {
    const a = figures({ whole: 10, own: 10 });
    const b = figures({
      whole: 20,
      own: 12,
      resumed: [[4, 1]],
      whole_seconds: { 'idle between attempts': 7, 'earlier attempts': 1 },
    });
    expect(plain(buildAnswer(a, b)[0])).toBe(
      "B took 10.0 s longer than A over the whole file as slime's viewer spans it (20.0 s vs 10.0 s): " +
        '7.0 s are idle time before the second attempts of 1 sample resumed from rollout 1 and 1.0 s their earlier attempts there.',
    );
  });

  it('an equal whole span counts as longer by 0', () => {
    const a = figures({ whole: 20, own: 20 });
    const b = figures({
      whole: 20,
      own: 10,
      resumed: [[0, 1]],
      whole_seconds: { 'idle between attempts': 8, 'earlier attempts': 2 },
    });
    expect(plain(buildAnswer(a, b)[0])).toMatch(
      /^B took 0\.00 s longer than A over the whole file as slime's viewer spans it \(20\.0 s vs 20\.0 s\): /,
    );
  });

  it('no idle time on either side: no whole-file sentence, the answer starts with the own window', () => {
    const answer = buildAnswer(figures({ own: 40 }), figures({ own: 50 }));
    expect(answer).toHaveLength(1);
    // 50 - 40 = 10 s, 10 / 40 = 25%
    expect(plain(answer[0])).toBe('B took 10.0 s longer than A (50.0 s vs 40.0 s, +25.0%).');
  });
});

describe('the own-window sentence', () => {
  it('B shorter: "less", a minus sign on the share', () => {
    expect(plain(buildAnswer(figures({ own: 40 }), figures({ own: 30 }))[0])).toBe(
      'B took 10.0 s less than A (30.0 s vs 40.0 s, −25.0%).',
    );
  });

  it('equal windows count as longer by 0', () => {
    expect(plain(buildAnswer(figures({ own: 10 }), figures({ own: 10 }))[0])).toBe(
      'B took 0.00 s longer than A (10.0 s vs 10.0 s, +0.0%).',
    );
  });

  it('A’s window is 0 s: no share, only the difference', () => {
    expect(plain(buildAnswer(figures({ own: 0 }), figures({ own: 5 }))[0])).toBe(
      'B took 5.0 s longer than A (5.0 s vs 0.00 s).',
    );
    const idleB = figures({
      whole: 9,
      own: 5,
      resumed: [[0, 3]],
      whole_seconds: { 'idle between attempts': 4 },
    });
    expect(plain(buildAnswer(figures({ own: 0 }), idleB)[1])).toBe(
      "In its own window B took 5.0 s against A's 0.00 s (+5.0 s).",
    );
  });

  it('names the three categories that moved most, by size, with their signs', () => {
    const a = figures({
      own: 20,
      own_seconds: { decode: 2, prefill: 5, queueing: 1, 'tool calls': 0.5, 'unsplit request': 1 },
    });
    const b = figures({
      own: 30,
      own_seconds: {
        decode: 10,
        prefill: 2,
        queueing: 1.5,
        'tool calls': 0.7,
        'unsplit request': 1,
      },
    });
    // decode +8, prefill -3, queueing +0.5, tool calls +0.2 (fourth: left out), unsplit request 0
    const answer = buildAnswer(a, b);
    expect(answer.map(plain)).toEqual([
      'B took 10.0 s longer than A (30.0 s vs 20.0 s, +50.0%).',
      'What kept each rollout open moved most in decode +8.0 s, prefill −3.0 s, queueing +0.50 s.',
    ]);
    // swapped: the same categories in the same order, signs flipped
    expect(plain(buildAnswer(b, a)[1])).toBe(
      'What kept each rollout open moved most in decode −8.0 s, prefill +3.0 s, queueing −0.50 s.',
    );
  });

  it('a move of 10 ms counts; under 10 ms it does not', () => {
    // 0 -> 0.01 is exactly 10 ms
    const a = figures({ own: 1, own_seconds: { 'tool calls': 0, 'unsplit request': 0.5 } });
    const b = figures({ own: 1, own_seconds: { 'tool calls': 0.01, 'unsplit request': 0.509 } });
    expect(buildAnswer(a, b).map(plain)).toEqual([
      'B took 0.00 s longer than A (1.0 s vs 1.0 s, +0.0%).',
      'What kept each rollout open moved most in tool calls +0.01 s.',
    ]);
    const c = figures({ own: 1, own_seconds: { 'unsplit request': 0.509 } });
    expect(
      buildAnswer(figures({ own: 1, own_seconds: { 'unsplit request': 0.5 } }), c).map(plain),
    ).toEqual(['B took 0.00 s longer than A (1.0 s vs 1.0 s, +0.0%).']);
  });

  it('links B’s bounding sample, naming the sample and its group', () => {
    const sentence = buildAnswer(figures({ own: 10 }), figures({ own: 10, bounding: [7, 2] }))[1];
    expect(plain(sentence)).toBe(
      'B ended with sample #107 (group 2) (completed), the slowest of its last group.',
    );
    expect(links(sentence)).toEqual([{ text: 'sample #107 (group 2)', side: 'b', rowIds: [7] }]);
  });

  it('an aborted request that never ended holds B open, by name; a retried sample says so', () => {
    const b = figures({
      own: 110,
      bounding: [77, 9],
      bounding_sample: {
        status: 'aborted',
        attempt: 1,
        lastRequest: { name: 'sglang_generate', durationSec: 102.6, unfinished: true },
      },
    });
    expect(plain(buildAnswer(figures({ own: 10 }), b)[1])).toBe(
      'B was held open 103 s by the aborted request (sglang_generate) of sample #177 (group 9), which never ended, retried: attempt 2.',
    );
    const cutOff = figures({
      own: 10,
      bounding: [3, 1],
      bounding_sample: {
        status: 'completed',
        lastRequest: { name: 'sglang_generate_stream', durationSec: 4, unfinished: true },
      },
    });
    expect(plain(buildAnswer(figures({ own: 10 }), cutOff)[1])).toBe(
      'B was held open 4.0 s by the unfinished request (sglang_generate_stream) of sample #103 (group 1), which never ended.',
    );
    const ended = figures({
      own: 10,
      bounding: [3, 1],
      bounding_sample: {
        status: 'truncated',
        lastRequest: { name: 'sglang_generate', durationSec: 3.25, unfinished: false },
      },
    });
    expect(plain(buildAnswer(figures({ own: 10 }), ended)[1])).toBe(
      'B ended with sample #103 (group 1) (truncated), the slowest of its last group, whose last request (sglang_generate) took 3.3 s.',
    );
  });
});

describe('the stragglers sentence', () => {
  it('B’s last samples, linked, with their share of samples and of wall time', () => {
    const b = figures({
      own: 58.3,
      stragglers: {
        rowIds: [4, 9, 11],
        sampleCount: 3,
        sampleShare: 0.125,
        tailSec: 12.5,
        wallShare: 0.214,
      },
    });
    const answer = buildAnswer(figures({ own: 58.3 }), b);
    expect(answer).toHaveLength(2);
    expect(plain(answer[1])).toBe(
      'In B, the last 3 samples (12.5%) kept the rollout open for 21.4% of its own wall time (12.5 s of 58.3 s).',
    );
    expect(links(answer[1])).toEqual([
      { text: 'the last 3 samples (12.5%)', side: 'b', rowIds: [4, 9, 11] },
    ]);
  });

  it('one straggler is one sample; A’s stragglers are not B’s', () => {
    const one = { rowIds: [2], sampleCount: 1, sampleShare: 0.25, tailSec: 0.5, wallShare: 0.05 };
    expect(plain(buildAnswer(figures({ own: 10 }), figures({ own: 10, stragglers: one }))[1])).toBe(
      'In B, the last 1 sample (25.0%) kept the rollout open for 5.0% of its own wall time (0.50 s of 10.0 s).',
    );
    expect(buildAnswer(figures({ own: 10, stragglers: one }), figures({ own: 10 }))).toHaveLength(
      1,
    );
  });
});
