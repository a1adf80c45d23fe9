import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { TrendPoint } from '../core/model/trend';

/** Bump when trendFigures changes what it computes: old entries are then ignored. */
// 3: straggler tail and resumed samples added to the figures
const CACHE_VERSION = 3;
const HEAD_BYTES = 64 * 1024;

/** What identifies a file's content cheaply: its size, mtime and a hash of its first 64 KB. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  headHash: string;
}

export function fileStamp(path: string): FileStamp {
  const stat = statSync(path);
  const { size, mtimeMs } = stat;
  if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.allocUnsafe(Math.min(HEAD_BYTES, size));
    const length = readSync(fd, head, 0, head.length, 0);
    const headHash = createHash('sha256').update(head.subarray(0, length)).digest('hex');
    return { size, mtimeMs, headHash };
  } finally {
    closeSync(fd);
  }
}

/**
 * Per-file trend figures kept in the app's data folder, so that reopening a run's folder reads
 * nothing but the files that changed. An entry counts only while size, mtime and head hash
 * all match; a file still being written changes them.
 */
export class TrendCache {
  constructor(private readonly dir: string | null) {}

  get(path: string, stamp: FileStamp): TrendPoint | null {
    if (!this.dir) return null;
    try {
      const entry = JSON.parse(readFileSync(this.entryPath(path), 'utf8')) as {
        version: number;
        stamp: FileStamp;
        point: TrendPoint;
      };
      const same =
        entry.version === CACHE_VERSION &&
        entry.stamp.size === stamp.size &&
        entry.stamp.mtimeMs === stamp.mtimeMs &&
        entry.stamp.headHash === stamp.headHash;
      return same ? { ...entry.point, path } : null;
    } catch {
      return null; // no entry, or one that cannot be read: compute again
    }
  }

  set(path: string, stamp: FileStamp, point: TrendPoint): void {
    if (!this.dir) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const target = this.entryPath(path);
      // written whole, then renamed: a reader never sees half an entry
      const partial = `${target}.${process.pid}.tmp`;
      writeFileSync(partial, JSON.stringify({ version: CACHE_VERSION, stamp, point }));
      renameSync(partial, target);
    } catch {
      // a cache that cannot be written only costs the next open its speed
    }
  }

  private entryPath(path: string): string {
    return join(this.dir!, `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.json`);
  }
}
