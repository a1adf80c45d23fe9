import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLIME, readJson } from '../../support/fixtures';

// The built CLI as a user runs it (npm test builds first).
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const R7 = resolve(SLIME, 'rollout_7.pt');
const R8 = resolve(SLIME, 'rollout_8.pt');

describe.skipIf(!existsSync(CLI))(
  'trace-explorer compare and summary: rollout 8 resumed groups of rollout 7',
  () => {
    it('compare A B prints the answer first, then figures with units, then the time breakdown', () => {
      const out = run('compare', R7, R8);
      expect(out.status).toBe(0);
      const lines = out.stdout.split('\n');
      expect(lines[0]).toBe('A  rollout_7.pt');
      expect(lines[1]).toBe('B  rollout_8.pt');
      expect(lines[3]).toBe(
        "B took 3586 s longer than A over the whole file as slime's viewer spans it (3628 s vs 42.0 s): " +
          '3539 s are idle time before the second attempts of 8 samples resumed from rollout 7 [B rows 0-7] ' +
          'and 31.2 s their earlier attempts there.',
      );
      expect(lines[4]).toBe(
        "In its own window B took 58.3 s against A's 42.0 s (+16.3 s, +38.8%).",
      );
      expect(lines[5]).toBe(
        'B ended with sample #9 (group 2) [B rows 9] (truncated, retried: attempt 2), the slowest of its last group, whose last request (sglang_generate) took 3.3 s.',
      );
      expect(lines[6]).toBe(
        'What kept each rollout open moved most in decode +14.3 s, unsplit request +2.6 s, tool calls −0.69 s.',
      );
      // response length from the samples (rollout_7_vs_8.compare.expected.json: 1487.375 and 2364)
      expect(out.stdout).toMatch(
        /response_length\/mean\s+tokens\s+1487\s+2364\s+\+877\s+\+58\.9% \* changed/,
      );
      // a 0.4 ms change is noise whatever its %: no mark, under the small changes, in µs
      const small = out.stdout.indexOf('small changes (');
      expect(small).toBeGreaterThan(0);
      const allocWait = out.stdout.search(
        /perf\/prefill\/alloc_wait_duration\/min\s+µs\s+57\.61\s+460\.8\s+\+403\.16\s+\+699\.8%\n/,
      );
      expect(allocWait).toBeGreaterThan(small);
      // the idle hour is among the first figures, in minutes, saying it is the resumed rows' time
      const figures = lines.slice(lines.findIndex((l) => l.startsWith('metric')) + 1);
      expect(figures[1]).toMatch(
        /^rollout\/idle_between_attempts_sec\s+min\s+0\s+58\.98\s+\+58\.98\s+\* worse {2}\(only the resumed rows' time: B's 8 resumed rows\)$/,
      );
      // no value needs more than 4 significant digits
      expect(out.stdout).not.toMatch(/\d\.\d{5,}/);
      expect(out.stdout).toMatch(
        /idle between attempts\s+0\.00\s+0\.00\s+0\.00\s+0\.00\s+3538\.83/,
      );
      expect(out.stdout).toContain(
        'samples matched by group and prompt: 0; only in A: rows 0-23; only in B: rows 0-23',
      );
    });

    it('compare --json carries the answer as sentences, units, verdicts and the wall-time breakdown', () => {
      const out = run('compare', R7, R8, '--json');
      expect(out.status).toBe(0);
      const json = JSON.parse(out.stdout) as {
        answerText: string[];
        stats: { key: string; a: number; b: number; unit: string; verdict: string }[];
        wallTime: { category: string; bWholeSec: number }[];
        matchedBy: string;
      };
      expect(json.answerText[0]).toContain(
        '3539 s are idle time before the second attempts of 8 samples resumed from rollout 7',
      );
      const expected = readJson<{ b: { response_length: { median: number } } }>(
        resolve(SLIME, 'rollout_7_vs_8.compare.expected.json'),
      );
      const median = json.stats.find((s) => s.key === 'response_length/median')!;
      expect(median.b).toBe(expected.b.response_length.median);
      expect(median.unit).toBe('tokens');
      expect(
        json.wallTime.find((w) => w.category === 'idle between attempts')!.bWholeSec,
      ).toBeGreaterThan(3500);
      expect(json.matchedBy).toBe('group and prompt');
    });

    it('compare needs two files', () => {
      const out = run('compare', R7);
      expect(out.status).toBe(2);
      expect(out.stderr).toContain('compare takes two files, A and B (1 given)');
    });

    it('summary --json gives the window it used, resumed samples, stragglers and groups', () => {
      const out = run('summary', R8, '--json');
      expect(out.status).toBe(0);
      const { rollout } = JSON.parse(out.stdout) as {
        rollout: {
          window: { kind: string; label: string; durationSec: number };
          resumedSamples: { rowId: number; startRolloutId: number; idleSec: number }[];
          stragglers: { sampleCount: number; rowIds: number[]; sentence: string };
          groups: { groupIndex: number; zeroVariance: boolean }[];
        };
      };
      expect(rollout.window.kind).toBe('own');
      expect(rollout.window.label).toContain("this rollout's own window: 3570.0-3628.3 s (58.3 s)");
      expect(rollout.resumedSamples.map((s) => [s.rowId, s.startRolloutId])).toEqual(
        [0, 1, 2, 3, 4, 5, 6, 7].map((id) => [id, 7]),
      );
      for (const s of rollout.resumedSamples) expect(s.idleSec).toBeGreaterThan(3500);
      expect(rollout.stragglers.sampleCount).toBe(3);
      expect(rollout.groups.filter((g) => g.zeroVariance).map((g) => g.groupIndex)).toEqual([5]);
    });

    it('summary in a terminal says the window, the resumed samples and the straggler tail', () => {
      const out = run('summary', R8);
      expect(out.status).toBe(0);
      expect(out.stdout).toContain(
        "window    this rollout's own window: 3570.0-3628.3 s (58.3 s); earlier attempts of 8 resumed samples left out",
      );
      expect(out.stdout).toContain(
        'resumed   8 samples from rollout 7: 3538.8 s idle between attempts',
      );
      expect(out.stdout).toMatch(/tail {6}the last 3 samples \(12\.5%\) kept the rollout open for/);
      expect(run('summary', R7).stdout).not.toContain('resumed');
    });
  },
);
