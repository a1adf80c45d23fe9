import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareTraces } from '../../../src-main/core/compare/compare-traces';
import { answerText } from '../../../src-main/cli/compare-output';
import { editedMetricsLog, writeRunFolder } from '../../support/edited-run';
import { openRun } from '../../support/run-extra-run';
import { RUN } from '../../support/run-extra-expected';

// `compare RUN_A RUN_B` on two run folders: run + run_extra copied twice, B's request-metrics
// log made by a generator (decode 30% slower per token, every third request retracted twice).
// Its answer must say what the app's compare says of the same dumps in open runs: the app's
// sentences come from the run joined here in-process (tests/support/run-extra-run.ts).
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

let dir: string;
let runA: string;
let runB: string;
const edited = editedMetricsLog();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'te-compare-runs-'));
  runA = writeRunFolder(join(dir, 'runA'));
  runB = writeRunFolder(join(dir, 'runB'), edited);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** the app's answers for rollout k of run A against rollout k of run B, as plain sentences */
let answers: string[][] | null = null;
function appAnswer(k: number): string[] {
  if (answers === null) {
    const [a, b] = [openRun(), openRun(edited)];
    answers = [0, 1].map((n) => answerText(compareTraces(a.side(n), b.side(n)).answer));
  }
  return answers[k];
}

interface PairJson {
  rolloutId: number;
  files: { a: string; b: string };
  answerText: string[];
  stats: { key: string; a: number | null; b: number | null }[];
}

describe('compare RUN_A RUN_B', () => {
  it("pairs the runs' rollouts by id and says what the app says of each pair", () => {
    const result = cli('compare', runA, runB, '--json');
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as {
      pairedBy: string;
      pairs: PairJson[];
      onlyA: unknown[];
      onlyB: unknown[];
    };
    expect(out.pairedBy).toBe('rollout id');
    expect(out.pairs.map((p) => [p.rolloutId, p.files.a, p.files.b])).toEqual([
      [0, 'runA/rollout_0.pt', 'runB/rollout_0.pt'],
      [1, 'runA/rollout_1.pt', 'runB/rollout_1.pt'],
    ]);
    expect([out.onlyA, out.onlyB]).toEqual([[], []]);
    out.pairs.forEach((pair, k) => {
      const app = appAnswer(k);
      // the run's sentences are there (the generator's changes), and the app's answer whole
      expect(app.some((s) => s.startsWith("B's decode was 30.0% slower per token"))).toBe(true);
      expect(app.some((s) => s.includes('were retracted at least once, against 0.0% in A'))).toBe(
        true,
      );
      expect(pair.answerText).toEqual(app);
      const stat = (key: string) => pair.stats.find((s) => s.key === key);
      expect(
        stat('requests/decode_per_token_sec')!.b! / stat('requests/decode_per_token_sec')!.a!,
      ).toBeCloseTo(1.3, 9);
      expect(stat('requests/retractions')!.a).toBe(0);
      expect(stat('train/mismatch_mean_abs_dlogp')!.a).toBe(
        stat('train/mismatch_mean_abs_dlogp')!.b,
      );
    });
  });

  it('prints the same sentences as text, a section per rollout', () => {
    const result = cli('compare', runA, runB);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('2 rollouts paired by rollout id');
    const sections = result.stdout.split(/^== rollout /m).slice(1);
    expect(sections.map((s) => s.split('\n')[0])).toEqual(['0', '1']);
    sections.forEach((section, k) => {
      for (const sentence of appAnswer(k)) expect(section).toContain(sentence);
    });
  });

  it("compare of two dumps inside those run folders: their pair's answer, with the runs' figures", () => {
    const runs = cli('compare', runA, runB, '--json');
    expect(runs.status, runs.stderr).toBe(0);
    const pair = (JSON.parse(runs.stdout) as { pairs: PairJson[] }).pairs[0];
    const result = cli('compare', join(runA, 'rollout_0.pt'), join(runB, 'rollout_0.pt'), '--json');
    expect(result.status, result.stderr).toBe(0);
    // the same answer, figures and matched rows; only the names differ (the runs' name theirs)
    const { files: names, ...dumps } = JSON.parse(result.stdout) as Omit<PairJson, 'rolloutId'>;
    const { rolloutId: _id, files: _files, ...same } = pair;
    expect(names).toEqual({ a: 'rollout_0.pt', b: 'rollout_0.pt' });
    expect(dumps).toEqual(same);
    expect(dumps.answerText.some((s) => s.startsWith("B's decode was 30.0% slower"))).toBe(true);
    // the same dumps without those files beside them (run/ alone): no run figure
    const plain = cli('compare', join(RUN, 'rollout_0.pt'), join(RUN, 'rollout_1.pt'), '--json');
    expect(plain.status, plain.stderr).toBe(0);
    const keys = (JSON.parse(plain.stdout) as PairJson).stats.map((s) => s.key);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => /^(train|requests|staleness)\//.test(k))).toEqual([]);
  });

  it('refuses a run folder against a file, saying which is which', () => {
    const result = cli('compare', runA, join(runB, 'rollout_0.pt'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is a run');
  });
});
