import { describe, expect, it } from 'vitest';
import { inflateSync } from 'fflate';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeAnswer } from '../../../src-main/core/api/typed-json';
import type { ReportSnapshot } from '../../../src-main/core/api/report-snapshot';
import { FIXTURES } from '../../support/fixtures';

// Issue 47: `report RUN_FOLDER` holds the run as the app's run tab shows it (openRun's answer):
// each file with its role and the joins, figures as tests/fixtures/run's README and
// expected_counts.json (check_run.py, from the files themselves) give them.
describe('report of a run folder', () => {
  const CLI = resolve(__dirname, '../../../out/main/cli.js');
  const RUN = resolve(FIXTURES, 'run');
  const out = join(mkdtempSync(join(tmpdir(), 'report-run-')), 'run.html');
  const done = spawnSync(process.execPath, [CLI, 'report', RUN, '-o', out], { encoding: 'utf8' });
  const html = done.status === 0 ? readFileSync(out, 'utf8') : '';
  const snapshot = (() => {
    const block = /id="report-data" data-type="([^"]+)">([^<]*)</.exec(html);
    if (!block) return null;
    const frame = inflateSync(Buffer.from(block[2], 'base64'));
    return decodeAnswer(block[1], frame.slice().buffer) as ReportSnapshot;
  })();
  const expected = JSON.parse(readFileSync(join(RUN, 'expected_counts.json'), 'utf8')) as {
    joins: {
      matched: number;
      sglang_decode_rids: number;
      sglang_requests_without_slime_sample: number;
      unmatched_sglang_requests: { rid: string }[];
    };
  };

  it('holds the run: every file with its role, the tab opening on them', () => {
    expect(done.stderr).toBe('');
    const run = snapshot!.run!;
    expect(run.complete).toBe(true);
    const roles = run.files.map((f) => f.role).sort();
    // 2 dumps, SGLang's trace, 2 ranks in each of the two timeline schemas
    expect(roles).toEqual([
      'samples',
      'samples',
      'server',
      'trainer',
      'trainer',
      'trainer',
      'trainer',
    ]);
    // the run's files are the report's files, by the same ids
    expect(run.files.map((f) => f.file.fileId)).toEqual(
      snapshot!.files.map((f) => f.summary.fileId),
    );
    // trainer lanes are named by their folder; nothing says where the run was on this disk
    expect(
      run.files.map((f) => f.file.path).filter((p) => p?.includes('comm_timeline_v1/')),
    ).toHaveLength(2);
    expect(html).not.toContain(FIXTURES);
  });

  it("joins as check_run.py counts from the files: 64 matched, SGLang's aborted request alone", () => {
    const { joins } = snapshot!.run!;
    expect(joins.counts.samplesWithServerRequests).toBe(expected.joins.matched);
    expect(joins.counts.serverRequests).toBe(expected.joins.sglang_decode_rids);
    expect(joins.counts.serverRequestsWithoutSample).toBe(
      expected.joins.sglang_requests_without_slime_sample,
    );
    expect(joins.serverRequestsWithoutSample.map((r) => r.rid)).toEqual(
      expected.joins.unmatched_sglang_requests.map((r) => r.rid),
    );
    expect(joins.links).toHaveLength(expected.joins.matched);
    expect(joins.trainer.files).toBe(4);
  });
});
