import { realpathSync, statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import type { FileError } from '../core/api/trace-api';

/**
 * Which paths a client may open by name. Serve mode answers anyone holding the token, who
 * must not be able to read any file of the machine through it: only the files and folders
 * named at start (and `--root` folders) open by path; uploads are unaffected. The desktop app
 * has no policy (its user picks files with the OS dialog).
 */
export interface PathPolicy {
  allows(path: string): boolean;
}

/**
 * Files named exactly, and anything under the named folders, after symlinks are resolved
 * (a link inside a folder that points outside it is outside it).
 */
export function namedPathsPolicy(files: string[], folders: string[]): PathPolicy {
  const exact = new Set<string>();
  const roots: string[] = [];
  for (const path of [...files, ...folders]) {
    const real = realPath(path);
    if (real === null) continue;
    if (isFolder(real)) roots.push(real.endsWith(sep) ? real : real + sep);
    else exact.add(real);
  }
  return {
    allows(path) {
      const real = realPath(path);
      if (real === null) return false;
      return exact.has(real) || roots.some((root) => real.startsWith(root) || real + sep === root);
    },
  };
}

/**
 * What a path that may not be opened answers: exactly what a missing file answers, so the
 * answer does not tell whether a file outside the named folders exists.
 */
export function notFoundError(path: string): FileError {
  return { code: 'io/not-found', message: 'no such file', fileName: basename(path) };
}

function realPath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
