import { readdirSync, statSync } from 'node:fs';

// The file system is touched only by the byte sources (core/bytes): this is the part of it
// that source grouping (a format's rotated sets) needs.

/** Whether `path` is a folder; null when it does not exist or cannot be read. */
export function isFolder(path: string): boolean | null {
  try {
    return statSync(path).isDirectory();
  } catch {
    return null;
  }
}

/**
 * The names in a folder (throws as readdir does). The last listing is kept for a second, and
 * only while the folder's mtime (changed when a name is added, removed or renamed) stays the
 * same: opening a folder of 20,000 files asks for each file's siblings, one file after the
 * other (each a task of its own on a host thread, ingest/ingest-host.ts), and a listing each
 * time made that quadratic (readdir was 4.6 of 20 s at 1,000 files). The second bounds what
 * a change within one mtime tick (a coarse file system's) could hide.
 */
export function listFolder(path: string): readonly string[] {
  const mtimeMs = statSync(path).mtimeMs;
  const now = Date.now();
  if (last && last.path === path && last.mtimeMs === mtimeMs && now - last.at < KEPT_MS)
    return last.names;
  const names = readdirSync(path);
  last = { path, mtimeMs, names, at: now };
  return names;
}

const KEPT_MS = 1000;
let last: { path: string; mtimeMs: number; names: readonly string[]; at: number } | null = null;
