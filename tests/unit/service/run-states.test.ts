import { describe, expect, it } from 'vitest';
import type { FileSummary, RunResult } from '../../../src-main/core/api/trace-api';
import { KEPT_FINISHED_RUNS, RunStates } from '../../../src-main/api/run-states';

// What main keeps of each run for runNow: the latest state, until the page closes its files;
// finished runs beyond a few are forgotten, oldest first, never one still opening.

function state(fileIds: string[], complete: boolean): RunResult {
  return {
    files: fileIds.map((fileId) => ({ file: { fileId } as FileSummary, role: 'samples' })),
    complete,
  } as RunResult;
}

describe('RunStates', () => {
  it('keeps the latest state of each run', () => {
    const states = new RunStates();
    states.note('r1', state(['a'], false));
    states.note('r1', state(['a', 'b'], true));
    expect(states.get('r1')).toEqual(state(['a', 'b'], true));
    expect(states.get('r2')).toBeNull();
  });

  it('forgets the runs a closed file belongs to', () => {
    const states = new RunStates();
    states.note('r1', state(['a', 'b'], true));
    states.note('r2', state(['c'], true));
    states.forgetFile('b');
    expect(states.get('r1')).toBeNull();
    expect(states.get('r2')).not.toBeNull();
  });

  it('keeps the latest finished runs, and every run still opening', () => {
    const states = new RunStates();
    states.note('opening', state(['x'], false));
    for (let k = 0; k <= KEPT_FINISHED_RUNS; k++) states.note(`r${k}`, state([`f${k}`], true));
    expect(states.get('r0')).toBeNull();
    expect(states.get('r1')).not.toBeNull();
    expect(states.get(`r${KEPT_FINISHED_RUNS}`)).not.toBeNull();
    expect(states.get('opening')).not.toBeNull();
  });
});
