import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { groupPaths } from '../../../src-main/ingest/group-files';
import { FIXTURES } from '../../support/fixtures';

describe('a folder of traces, some gzipped', () => {
  it('finds the gzipped Chrome trace and the plain one by content; skips a .gz of text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrome-folder-'));
    const fixture = resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json');
    copyFileSync(fixture, join(dir, 'a.json'));
    writeFileSync(join(dir, 'b.json.gz'), gzipSync(readFileSync(fixture)));
    writeFileSync(join(dir, 'c.txt.gz'), gzipSync(Buffer.from('not a trace\n')));
    const found = groupPaths([dir]);
    expect(found.groups).toEqual([[join(dir, 'a.json')], [join(dir, 'b.json.gz')]]);
    expect(found.skipped).toEqual([
      { path: join(dir, 'c.txt.gz'), reason: 'not a trace this app reads' },
    ]);
  });
});
