import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync as fflateGunzip } from 'fflate';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { exportTraceStream } from '../../../src-main/core/export/export-trace';
import type { FormatDescriptor } from '../../../src-main/core/formats/format-descriptor';
import { FORMATS } from '../../../src-main/core/formats/registry';
import { findTraceFormat, openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { runCommand } from '../../../src-main/cli/run-command';
import { FIXTURES, SLIME, readManifest } from '../../support/fixtures';

// `export --format perfetto` of a slime dump as a user runs it (the built CLI; npm test builds
// first): streamed row by row, with the bytes of the whole-file export and its coded errors.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 64 * 1024 * 1024 });
const dir = mkdtempSync(join(tmpdir(), 'te-export-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every slime dump the fixture manifest says opens (15). */
const dumps = readManifest()
  .inputs.filter((input) => input.file.startsWith('slime/') && input.opens !== undefined)
  .map((input) => ({ name: input.file.split('/').pop()!, path: resolve(FIXTURES, input.file) }));

/** The whole-file export (the file opened whole, its rows streamed out): today's bytes. */
function wholeFileExport(path: string): Buffer {
  const trace = openTraceFile([bytesSource(path.split('/').pop()!, readFileSync(path))]);
  return Buffer.from([...exportTraceStream(trace, 'perfetto', 'x.json').chunks].join(''), 'utf8');
}

describe('export --format perfetto of a slime dump, streamed', () => {
  it('covers the 16 slime dumps the manifest opens', () => {
    expect(dumps).toHaveLength(16);
  });

  for (const dump of dumps) {
    it(`${dump.name}: .json and .json.gz hold the whole-file export's bytes`, () => {
      const expected = wholeFileExport(dump.path);
      const json = join(dir, `${dump.name}.json`);
      const gz = join(dir, `${dump.name}.json.gz`);
      expect(run('export', dump.path, '--format', 'perfetto', '-o', json).status).toBe(0);
      expect(run('export', dump.path, '--format', 'perfetto', '-o', gz).status).toBe(0);
      expect(readFileSync(json).equals(expected)).toBe(true);
      const zipped = readFileSync(gz);
      expect(Buffer.from(gunzipSync(zipped)).equals(expected)).toBe(true);
      // one gzip member holding everything: fflate reads a single member only
      expect(Buffer.from(fflateGunzip(zipped)).equals(expected)).toBe(true);
    });
  }

  it("'-' writes the same bytes to stdout, not gzipped", () => {
    const path = resolve(SLIME, 'rollout_agentic.pt');
    const result = run('export', path, '--format', 'perfetto', '-o', '-');
    expect(result.status).toBe(0);
    expect(result.stdout.equals(wholeFileExport(path))).toBe(true);
  });

  it('a missing folder, a folder as output, a broken dump: the coded errors of before', () => {
    const dump = resolve(SLIME, 'rollout_small.pt');
    const missing = join(dir, 'no-such-folder', 'out.json.gz');
    const noFolder = run('export', dump, '--format', 'perfetto', '-o', missing);
    expect(noFolder.status).toBe(1);
    expect(noFolder.stderr.toString()).toContain(
      `cannot write ${missing}: its folder does not exist [export/no-folder]`,
    );
    const folder = run('export', dump, '--format', 'perfetto', '-o', dir);
    expect(folder.stderr.toString()).toContain(
      `cannot write ${dir}: it is a folder [export/is-directory]`,
    );
    // the broken dump's line is summary's (the one-line coded error every command prints),
    // and it comes before the output is looked at
    const truncated = resolve(SLIME, 'truncated.pt');
    const broken = run('export', truncated, '--format', 'perfetto', '-o', missing);
    expect(broken.status).toBe(1);
    expect(broken.stderr.toString()).toBe(run('summary', truncated).stderr.toString());
    expect(broken.stderr.toString()).toContain('[zip/eocd-not-found]');
  });

  it('a full disk while writing: export/disk-full, and the device is left alone', () => {
    const full = run(
      'export',
      resolve(SLIME, 'rollout_small.pt'),
      '--format',
      'perfetto',
      '-o',
      '/dev/full',
    );
    expect(full.status).toBe(1);
    expect(full.stderr.toString()).toContain(
      'cannot write /dev/full: the disk is full [export/disk-full]',
    );
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});

describe('a dump that fails on the second read', () => {
  // legacy_format.pt is torch's legacy layout: its pickle is read from the front, so without
  // its last byte every row comes out before the reader finds the end missing
  const legacy = resolve(SLIME, 'legacy_format.pt');
  const slime = findTraceFormat([bytesSource('x.pt', readFileSync(legacy))]).format;
  let reads = 0;
  let rowsBeforeFailure = 0;
  /** slime, but its second read sees the file without its last byte (cut while exported) */
  const cutOnSecondRead: FormatDescriptor = {
    ...slime,
    id: 'test-cut-on-second-read',
    sniff: (_head, name) => name.endsWith('.cut.pt'),
    streamRows(sources, options, sink) {
      if (++reads === 1) return slime.streamRows!(sources, options, sink);
      const cut = bytesSource(sources[0].name, sources[0].read(0, sources[0].size - 1));
      return slime.streamRows!([cut], options, {
        row: (row) => {
          rowsBeforeFailure++;
          sink.row(row);
        },
        restart: () => sink.restart(),
      });
    },
  };

  it('says what is wrong with the file, and leaves no half file behind', async () => {
    const path = join(dir, 'rollout.cut.pt');
    copyFileSync(legacy, path);
    const output = join(dir, 'cut.perfetto.json.gz');
    // an older export of the same name is replaced, not kept beside a half new one
    writeFileSync(output, 'an older export');
    const failure = runCommand(['export', path, '--format', 'perfetto', '-o', output], parseArgs, {
      formats: [cutOnSecondRead, ...FORMATS],
    });
    await expect(failure).rejects.toThrow(
      `${path}: the pickle ends early: the file is truncated or corrupt`,
    );
    await expect(failure).rejects.toThrow('[pickle/truncated]');
    // the second read got all 16 rows out (legacy_format.pt.expected.json) before it failed
    expect(rowsBeforeFailure).toBe(16);
    expect(existsSync(output)).toBe(false);
  });
});
