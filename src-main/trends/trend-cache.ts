import { createHash } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { TrendPoint } from '../core/model/trend';

/** Bump when trendFigures changes what it computes, or the entry's shape: old entries are ignored. */
// 3: straggler tail and resumed samples added to the figures
// 4: keyed by a digest of the whole file; NaN and infinities kept (as strings)
const CACHE_VERSION = 4;

/** What identifies a file's content: a digest of all of it, and its size and mtime when read. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  /** sha256 of the whole file, hex */
  digest: string;
}

/**
 * The file's stamp: its whole content hashed as it is read in 1 MiB chunks, off the event
 * loop's thread's way (serve mode answers meanwhile). Size and mtime are taken before.
 */
export async function fileStamp(path: string): Promise<FileStamp> {
  const stat = statSync(path);
  if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
    hash.update(chunk as Buffer);
  return { size: stat.size, mtimeMs: stat.mtimeMs, digest: hash.digest('hex') };
}

/** Whether a file still looks as it did when stamped (a cheap check after reading it). */
export function unchangedSince(path: string, stamp: FileStamp): boolean {
  try {
    const stat = statSync(path);
    return stat.size === stamp.size && stat.mtimeMs === stamp.mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Per-file trend figures kept in the app's data folder, so that reopening a run's folder
 * parses nothing but the files whose content changed. An entry is read like any input: it
 * counts only when its version and digest match and every field has its type and range;
 * otherwise the file is read again.
 */
export class TrendCache {
  constructor(private readonly dir: string | null) {}

  get(path: string, stamp: FileStamp): TrendPoint | null {
    if (!this.dir) return null;
    let text: string;
    try {
      text = readFileSync(this.entryPath(path), 'utf8');
    } catch {
      return null; // no entry: compute
    }
    if (text.length > MAX_ENTRY_CHARS) return null;
    try {
      const point = validEntry(JSON.parse(text), stamp);
      return point ? { ...point, path } : null;
    } catch {
      return null; // not JSON: compute again
    }
  }

  set(path: string, stamp: FileStamp, point: TrendPoint): void {
    if (!this.dir) return;
    try {
      mkdirSync(this.dir, { recursive: true });
      const target = this.entryPath(path);
      // written whole, then renamed: a reader never sees half an entry
      const partial = `${target}.${process.pid}.tmp`;
      const entry = { version: CACHE_VERSION, digest: stamp.digest, point: storedPoint(point) };
      writeFileSync(partial, JSON.stringify(entry));
      renameSync(partial, target);
    } catch {
      // a cache that cannot be written only costs the next open its speed
    }
  }

  private entryPath(path: string): string {
    return join(this.dir!, `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.json`);
  }
}

/** An entry larger than this is not ours (a point has a few dozen figures). */
const MAX_ENTRY_CHARS = 1 << 20;
const MAX_FIGURES = 10_000;
const MAX_TEXT = 4096;

/** JSON has no NaN or infinity: they are kept as these strings. */
const SPECIAL: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

function storedPoint(point: TrendPoint) {
  const figures: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(point.figures))
    figures[key] = Number.isFinite(value) ? value : String(value);
  return { ...point, figures };
}

/** The point an entry holds when it is a valid entry for this stamp, else null. */
function validEntry(entry: unknown, stamp: FileStamp): Omit<TrendPoint, 'path'> | null {
  if (!isRecord(entry) || entry.version !== CACHE_VERSION || entry.digest !== stamp.digest)
    return null;
  const point = entry.point;
  if (!isRecord(point)) return null;
  const { name, series, rolloutId, figures } = point;
  if (typeof name !== 'string' || name.length > MAX_TEXT) return null;
  if (series !== 'rollout' && series !== 'eval') return null;
  if (rolloutId !== null && !(typeof rolloutId === 'number' && Number.isSafeInteger(rolloutId)))
    return null;
  if (!isRecord(figures)) return null;
  const keys = Object.keys(figures);
  if (keys.length > MAX_FIGURES) return null;
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const key of keys) {
    const value = figures[key];
    if (key.length > MAX_TEXT) return null;
    if (typeof value === 'number') out[key] = value;
    else if (typeof value === 'string' && Object.hasOwn(SPECIAL, value)) out[key] = SPECIAL[value];
    else return null; // a string figure (markup or not), null, an object: not an entry of ours
  }
  return { name, series, rolloutId, figures: { ...out } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
