import { describe, expect, it } from 'vitest';
import { StorageEntries } from '../../../src-main/core/formats/torch/storage-entries';
import type { ZipEntry } from '../../../src-main/core/formats/zip/read-zip-directory';

const entry = (name: string, at: number, method = 0): ZipEntry => ({
  name,
  method,
  compressedSize: at + 1,
  size: at + 2,
  localHeaderOffset: at,
});

describe("a torch archive's storages by key (StorageEntries)", () => {
  it('finds each storage entry again by its key, numbered or not, and nothing else', () => {
    const entries = [
      entry('dump/data.pkl', 0),
      entry('dump/data/0', 100),
      entry('dump/data/1', 200, 8),
      entry('dump/data/12', 300),
      entry('dump/data/07', 400),
      entry('dump/data/weights', 500),
      entry('other/data/3', 600),
      entry('dump/version', 700),
    ];
    const storages = new StorageEntries(entries, 'dump/');
    for (const e of entries.filter((e) => e.name.startsWith('dump/data/')))
      expect(storages.get(e.name.slice('dump/data/'.length))).toEqual(e);
    // "07" is not "7", and only this archive's stem holds its storages
    expect(storages.get('7')).toBeUndefined();
    expect(storages.get('3')).toBeUndefined();
    expect(storages.get('2')).toBeUndefined();
    expect(storages.get('data.pkl')).toBeUndefined();
    expect(storages.get('')).toBeUndefined();
  });

  it('a key far past the entry count (a hostile archive) is kept by name, not as columns that long', () => {
    const far = entry('d/data/4000000000', 10);
    const storages = new StorageEntries([entry('d/data/0', 0), far], 'd/');
    expect(storages.get('4000000000')).toEqual(far);
    expect(storages.get('0')).toEqual(entry('d/data/0', 0));
    // columns for the dense keys only: two storages, not four billion
    expect((storages as unknown as { headerAt: Float64Array }).headerAt.length).toBe(1);
  });
});
