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

/** The names in a folder (throws as readdir does). */
export function listFolder(path: string): string[] {
  return readdirSync(path);
}
