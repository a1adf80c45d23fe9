import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SavedBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

const DEFAULT_BOUNDS: SavedBounds = { width: 1400, height: 880 };

/** The window's size and position, remembered between launches. */
export function loadWindowBounds(userDataDir: string): SavedBounds {
  try {
    const parsed = JSON.parse(
      readFileSync(join(userDataDir, 'window-state.json'), 'utf8'),
    ) as SavedBounds;
    const sane = (n: unknown, min: number) =>
      typeof n === 'number' && Number.isFinite(n) && n >= min;
    if (!sane(parsed.width, 400) || !sane(parsed.height, 300)) return DEFAULT_BOUNDS;
    return {
      width: parsed.width,
      height: parsed.height,
      x: typeof parsed.x === 'number' ? parsed.x : undefined,
      y: typeof parsed.y === 'number' ? parsed.y : undefined,
      maximized: parsed.maximized === true,
    };
  } catch {
    return DEFAULT_BOUNDS;
  }
}

export function saveWindowBounds(userDataDir: string, bounds: SavedBounds): void {
  try {
    const file = join(userDataDir, 'window-state.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(bounds));
  } catch {
    // not worth failing a quit over
  }
}
