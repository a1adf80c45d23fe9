import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import {
  MAX_OPEN_FILES,
  openDescriptorCount,
  openFileSource,
} from '../../../src-main/core/bytes/file-source';
import { readTensorValues } from '../../../src-main/core/formats/slime/read-slime-dump';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { ingest } from '../../../src-main/ingest/open-sources';
import { nanos, otlpFile, otlpLine, spanId } from './otlp-writer';

// Issue 19 cases 4, 5, 8 (a file truncated while read) and 11: files on disk and tensors.
const dir = mkdtempSync(join(tmpdir(), 'te-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CLI = resolve(__dirname, '../../../out/main/cli.js');

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof FormatError ? error.code : `uncoded: ${String(error)}`;
  }
  return 'no error';
}

// this thread's file sources (other test files run in other threads of the same process)
const openFds = () => openDescriptorCount();

describe('only regular files open (issue 19, case 4)', () => {
  it('a FIFO named x.pt is refused at once, not waited on', () => {
    const fifo = join(dir, 'x.pt');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(codeOf(() => ingest({ sources: [{ kind: 'path', path: fifo }] }))).toBe('io/not-a-file');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('`summary` on the FIFO exits with the coded error (the built CLI)', () => {
    const result = spawnSync(process.execPath, [CLI, 'summary', join(dir, 'x.pt')], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('[io/not-a-file]');
    expect(result.stderr).toContain('x.pt');
  });

  it('a folder and a device are refused with their own codes', () => {
    expect(codeOf(() => ingest({ sources: [{ kind: 'path', path: dir }] }))).toBe(
      'io/is-directory',
    );
    expect(codeOf(() => ingest({ sources: [{ kind: 'path', path: '/dev/zero' }] }))).toBe(
      'io/not-a-file',
    );
  });
});

describe('export write errors are coded (issue 19, case 12)', () => {
  it('a missing output folder says so with a code, not a raw errno text', () => {
    const result = spawnSync(
      process.execPath,
      [
        CLI,
        'export',
        resolve(__dirname, '../../fixtures/otlp/roll_traces.1.jsonl'),
        '--format',
        'csv',
        '-o',
        join(dir, 'no-such-folder', 'out.csv'),
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('its folder does not exist [export/no-folder]');
    expect(result.stderr).not.toContain('ENOENT');
  });
});

describe('bounded open files (issue 19, case 5)', () => {
  it(`a rotated set of 300 files opens with at most ${MAX_OPEN_FILES} of them open at once`, () => {
    const set = mkdtempSync(join(dir, 'rotated-'));
    const paths: string[] = [];
    for (let i = 0; i < 300; i++) {
      // ROLL's rotation: traces.jsonl is the oldest, then traces.1.jsonl, ...
      const path = join(set, i === 0 ? 'traces.jsonl' : `traces.${i}.jsonl`);
      writeFileSync(
        path,
        otlpFile([otlpLine([{ spanId: spanId(i + 1), start: nanos(i), end: nanos(i + 0.5) }])]),
      );
      paths.push(path);
    }
    const before = openFds();
    const sources = paths.map((path) => openFileSource(path));
    // all 300 sources exist; only the pool's descriptors are open
    expect(openFds() - before).toBeLessThanOrEqual(MAX_OPEN_FILES);
    for (const source of sources) source.read(0, 16);
    expect(openFds() - before).toBeLessThanOrEqual(MAX_OPEN_FILES);
    for (const source of sources) source.close();
    expect(openFds()).toBe(before);
    const trace = ingest({ sources: paths.map((path) => ({ kind: 'path', path })) });
    expect(trace.summary.spans).toBe(300);
    expect(openFds()).toBe(before);
    // the built CLI under a limit of 128 open files (macOS's default is 256): the folder's
    // rotated set opens as one trace
    const result = spawnSync(
      'bash',
      ['-c', `ulimit -n 128 && "${process.execPath}" "${CLI}" summary --json "${set}"`],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.stderr).not.toContain('EMFILE');
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { spans: number }).spans).toBe(300);
  });
});

describe('a file that changes while it is read (issue 19, case 8)', () => {
  it('a file truncated after opening gives io/file-changed, not "Invalid DataView length"', () => {
    const path = join(dir, 'shrinks.bin');
    writeFileSync(path, Buffer.alloc(4096, 1));
    const source = openFileSource(path);
    truncateSync(path, 100);
    expect(codeOf(() => source.read(0, 4096))).toBe('io/file-changed');
    source.close();
  });
});

describe('tensor bounds (issue 19, case 11)', () => {
  const storage = { key: '0', dtype: 'float32', byteOffset: 64, byteLength: 32 };
  const file = bytesSource('t.pt', new Uint8Array(1024).fill(7));
  const tensor = (storageOffset: number, shape: number[], stride: number[]) => ({
    $kind: 'tensor' as const,
    dtype: 'float32',
    shape,
    stride,
    storageOffset,
    storage,
  });

  it('offset -5, stride 1e15 on 32 bytes: refused, no other bytes of the file shown', () => {
    expect(codeOf(() => readTensorValues(file, tensor(-5, [2], [1e15])))).toBe(
      'torch/tensor-out-of-bounds',
    );
    expect(codeOf(() => readTensorValues(file, tensor(0, [2], [1e15])))).toBe(
      'torch/tensor-out-of-bounds',
    );
    // 8 float32 elements: a shape of 9 reaches past the storage
    expect(codeOf(() => readTensorValues(file, tensor(0, [9], [1])))).toBe(
      'torch/tensor-out-of-bounds',
    );
  });

  it('a tensor inside its storage reads its values', () => {
    expect(readTensorValues(file, tensor(2, [2, 3], [3, 1]))).toHaveLength(6);
  });
});
