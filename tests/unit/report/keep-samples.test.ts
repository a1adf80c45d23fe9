import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ingest } from '../../../src-main/ingest/open-sources';
import { fileCalls } from '../../../src-main/ingest/file-calls';
import { SLIME } from '../../support/fixtures';

// A report asks for every sample: opened with keepSamples, a dump's samples are the ones the
// open read, never read a second time from the file (issue 47: a report at most 2x summary).
describe('keepSamples', () => {
  const open = (path: string, keepSamples: boolean) => {
    const trace = ingest({ sources: [{ kind: 'path', path }] }, { keepSamples });
    return { trace, calls: fileCalls(trace, [{ kind: 'path', path }]) };
  };

  it('answers every sample as the file would, without reading the file again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keep-samples-'));
    const path = join(dir, 'rollout_7.pt');
    copyFileSync(resolve(SLIME, 'rollout_7.pt'), path);
    const kept = open(path, true);
    const again = open(path, false);
    const count = kept.trace.summary.samples;
    expect(count).toBeGreaterThan(10);
    const ids = Array.from({ length: count }, (_, i) => i);
    const readAgain = ids.map((i) => again.calls.getSample(i));
    expect(ids.map((i) => kept.calls.getSample(i))).toEqual(readAgain);
    expect(kept.trace.summary.rows).toBe(again.trace.summary.rows);
    rmSync(dir, { recursive: true });
    // the file is gone: a sample read again fails, a kept one is still there
    expect(() => again.calls.getSample(3)).toThrow(/io\/file-gone|moved or deleted/);
    expect(kept.calls.getSample(3)).toEqual(readAgain[3]);
  });
});
