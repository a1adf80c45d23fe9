import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import {
  readSlimeDump,
  readTensorValues,
} from '../../../src-main/core/formats/slime/read-slime-dump';
import { readZipDirectory } from '../../../src-main/core/formats/zip/read-zip-directory';
import type { PyValue, TensorRef } from '../../../src-main/core/model/py-value';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { SLIME } from '../../support/fixtures';

// A tensor's storage is located by its zip entry and its bytes' start read only when a user
// loads its values: a broken storage entry no longer stops the dump from opening, and loading
// that tensor's values says what is wrong, naming the file.
const original = new Uint8Array(readFileSync(resolve(SLIME, 'rollout_tensors.pt')));
const routedOf = (bytes: Uint8Array, name: string) => {
  const sample = readSlimeDump(bytesSource(name, bytes)).samples[0] as Record<string, PyValue>;
  return sample.rollout_routed_experts as TensorRef;
};
const rowsOf = (bytes: Uint8Array, name: string) =>
  openTraceFile([bytesSource(name, bytes)]).rows.map((row) => JSON.stringify(unpackRow(row)));

describe("a broken tensor storage entry (rollout_tensors.pt's)", () => {
  it('with no local header: the dump opens as it was; its values are a coded error naming the file', () => {
    const tensor = routedOf(original, 'rollout_tensors.pt');
    expect(tensor.storage.entryAt).toBeGreaterThan(0);
    const broken = original.slice();
    broken[tensor.storage.entryAt!] ^= 0xff; // its signature
    expect(rowsOf(broken, 'broken.pt')).toEqual(rowsOf(original, 'rollout_tensors.pt'));
    const values = () =>
      readTensorValues(bytesSource('broken.pt', broken), routedOf(broken, 'broken.pt'));
    expect(values).toThrow(expect.objectContaining({ code: 'zip/bad-local-header' }));
    expect(values).toThrow(/broken\.pt/);
    // the same tensor of the file as it was reads
    expect(readTensorValues(bytesSource('rollout_tensors.pt', original), tensor).length).toBe(
      tensor.shape.reduce((n, d) => n * d, 1),
    );
  });

  it('whose header says its bytes run past the end of the file: a coded error naming the file', () => {
    // the archive's last storage, its header's extra field made as long as it can be
    const last = readZipDirectory(bytesSource('rollout_tensors.pt', original))
      .filter((e) => e.name.includes('/data/'))
      .sort((a, b) => b.localHeaderOffset - a.localHeaderOffset)[0];
    const broken = original.slice();
    broken[last.localHeaderOffset + 28] = 0xff;
    broken[last.localHeaderOffset + 29] = 0xff;
    const key = last.name.split('/').pop()!;
    const samples = readSlimeDump(bytesSource('past.pt', broken)).samples as Record<
      string,
      PyValue
    >[];
    const tensor = samples
      .flatMap((s) => Object.values(s))
      .find(
        (v): v is TensorRef =>
          (v as TensorRef)?.$kind === 'tensor' && (v as TensorRef).storage.key === key,
      );
    expect(tensor).toBeDefined();
    const values = () => readTensorValues(bytesSource('past.pt', broken), tensor!);
    expect(values).toThrow(expect.objectContaining({ code: 'zip/entry-truncated' }));
    expect(values).toThrow(/past\.pt/);
  });
});
