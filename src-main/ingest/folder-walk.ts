import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

/** The most files one named folder lists (with its subfolders): past it, a clear skip. */
export const MAX_FOLDER_FILES = 50_000;

/** One entry of a walked folder: a file to sniff, or why it is not looked at. */
export type WalkedEntry =
  | { kind: 'file'; path: string }
  | { kind: 'folder'; path: string; depth: number }
  | { kind: 'skipped'; path: string; reason: string };

/**
 * Lists named folders so that nothing in them can trap the app: a symbolic link is followed
 * once (each file and folder is known by device and inode, so a link to `.` or a second link
 * to one file adds nothing), never to a place outside the named folder (a link to /etc is
 * skipped with the reason), and at most MAX_FOLDER_FILES files are listed per named folder.
 */
export class FolderWalk {
  private readonly seen = new Map<string, string>();
  private readonly rootReal: string;
  private files = 0;
  private saidTooMany = false;

  constructor(
    private readonly root: string,
    private readonly maxFiles = MAX_FOLDER_FILES,
  ) {
    this.rootReal = realOrNull(root) ?? root;
    const stat = statOrNull(root);
    if (stat) this.seen.set(identity(stat), root);
  }

  /** The entries of `dir` (the root or a folder this walk gave), in name order. */
  entries(dir: string, depth: number): WalkedEntry[] {
    const out: WalkedEntry[] = [];
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const entry = this.entry(path, depth + 1);
      if (entry) out.push(entry);
    }
    return out;
  }

  private entry(path: string, depth: number): WalkedEntry | null {
    let link: boolean;
    try {
      link = lstatSync(path).isSymbolicLink();
    } catch (error) {
      return { kind: 'skipped', path, reason: cannotRead(error) };
    }
    if (link) {
      const real = realOrNull(path);
      if (real === null) return { kind: 'skipped', path, reason: 'a link to nothing' };
      if (real !== this.rootReal && !real.startsWith(this.rootReal + sep))
        return { kind: 'skipped', path, reason: 'a link to a place outside the named folder' };
    }
    const stat = statOrNull(path);
    if (!stat) return { kind: 'skipped', path, reason: 'cannot be read' };
    const id = identity(stat);
    const first = this.seen.get(id);
    if (first !== undefined) {
      return {
        kind: 'skipped',
        path,
        reason: `the same ${stat.isDirectory() ? 'folder' : 'file'} as ${first} (listed once)`,
      };
    }
    this.seen.set(id, path);
    if (stat.isDirectory()) return { kind: 'folder', path, depth };
    if (!stat.isFile()) return { kind: 'skipped', path, reason: 'not a regular file' };
    if (this.files >= this.maxFiles) {
      if (this.saidTooMany) return null;
      this.saidTooMany = true;
      return {
        kind: 'skipped',
        path: this.root,
        reason: `holds more than ${count(this.maxFiles)} files: the first ${count(this.maxFiles)} by name are listed, the rest not (name a smaller folder) [io/too-many-files]`,
      };
    }
    this.files++;
    return { kind: 'file', path };
  }
}

const count = (n: number) => n.toLocaleString('en-US');

function identity(stat: { dev: number; ino: number }): string {
  return `${stat.dev}:${stat.ino}`;
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function cannotRead(error: unknown): string {
  return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
}
