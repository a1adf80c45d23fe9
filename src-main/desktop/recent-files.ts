import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAX_RECENT = 12;

/** Recently opened files, newest first, persisted across launches in the user data folder. */
export class RecentFiles {
  private readonly file: string;
  private paths: string[];

  constructor(userDataDir: string) {
    this.file = join(userDataDir, 'recent-files.json');
    this.paths = readJsonList(this.file);
  }

  list(): string[] {
    return [...this.paths];
  }

  add(path: string): void {
    this.paths = [path, ...this.paths.filter((p) => p !== path)].slice(0, MAX_RECENT);
    this.save();
  }

  clear(): void {
    this.paths = [];
    this.save();
  }

  private save(): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(this.file, JSON.stringify(this.paths, null, 2));
    } catch {
      // a read-only profile loses the list, not the app
    }
  }
}

function readJsonList(file: string): string[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
