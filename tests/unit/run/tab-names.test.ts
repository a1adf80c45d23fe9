import { basename, dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRunFiles } from '../../../src-main/ingest/run-files';
import { distinctTabNames } from '../../../src-renderer/units/tab-names';

// Tabs of one name told apart by the shortest path suffix that does it, as editors do: a run
// report's tabs (paths from the run folder's parent), the app's file tabs (absolute paths) and
// its run tabs (a folder each) all go through distinctTabNames.
const RUN = resolve(__dirname, '../../fixtures/run');

const named = (paths: string[]) =>
  distinctTabNames(paths.map((path) => ({ name: basename(path), path })));

describe('tab names', () => {
  it("tell a run's two trainer files of one name apart by their folder, as its report names them", () => {
    const found = findRunFiles([RUN]);
    // the report's paths (cli/run-report.ts): from the run folder's parent
    const paths = found.groups.map((group) => relative(dirname(RUN), group[0]));
    const names = named(paths);
    expect(new Set(names).size).toBe(paths.length);
    expect(names.slice().sort()).toEqual([
      'comm_timeline/slime-trainer-0.jsonl',
      'comm_timeline/slime-trainer-1.jsonl',
      'comm_timeline_v1/slime-trainer-0.jsonl',
      'comm_timeline_v1/slime-trainer-1.jsonl',
      'rollout_0.pt',
      'rollout_1.pt',
      'sglang_otel_trace.json',
    ]);
    // the app has their whole paths: the same names
    expect(named(found.groups.map((group) => group[0]))).toEqual(names);
  });

  it('grow a shared name only as far as it must, each tab by its own path', () => {
    expect(named(['/a/x/f.pt', '/b/x/f.pt', '/a/g.pt'])).toEqual(['a/x/f.pt', 'b/x/f.pt', 'g.pt']);
    // one shorter path: the other takes its folder, the short one has none to take
    expect(named(['/f.pt', '/a/f.pt'])).toEqual(['f.pt', 'a/f.pt']);
    // Windows separators
    expect(
      distinctTabNames([
        { name: 'f.pt', path: 'C:\\runs\\a\\f.pt' },
        { name: 'f.pt', path: 'C:\\runs\\b\\f.pt' },
      ]),
    ).toEqual(['a/f.pt', 'b/f.pt']);
    // the same file twice: nothing tells them apart, and the rounds end
    expect(named(['/a/f.pt', '/a/f.pt'])).toEqual(['a/f.pt', 'a/f.pt']);
  });

  it("keep an upload's name (no path) and a tab's own name when it is not its file's", () => {
    expect(
      distinctTabNames([
        { name: 'f.pt', path: null },
        { name: 'f.pt', path: '/data/f.pt' },
        // a rotated set: named for the set, told apart by the folder above its first file
        { name: 'm.jsonl (+2)', path: '/x/m.jsonl' },
        { name: 'm.jsonl (+2)', path: '/y/m.jsonl' },
      ]),
    ).toEqual(['f.pt', 'data/f.pt', 'x/m.jsonl (+2)', 'y/m.jsonl (+2)']);
  });

  it('tell two run folders of one name apart (run tabs), a folder path ending in a slash too', () => {
    expect(
      distinctTabNames([
        { name: 'run', path: '/exp1/run/' },
        { name: 'run', path: '/exp2/run' },
        { name: '3 files', path: null },
      ]),
    ).toEqual(['exp1/run', 'exp2/run', '3 files']);
  });
});
