import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecentFiles } from '../../../src-main/desktop/recent-files';
import { loadWindowBounds, saveWindowBounds } from '../../../src-main/desktop/window-state';

describe('recent files', () => {
  it('persist across instances, newest first, without duplicates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-recent-'));
    const first = new RecentFiles(dir);
    first.add('/a.pt');
    first.add('/b.jsonl');
    first.add('/a.pt');
    expect(new RecentFiles(dir).list()).toEqual(['/a.pt', '/b.jsonl']);
  });

  it('a corrupt list reads as empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-recent-'));
    writeFileSync(join(dir, 'recent-files.json'), '{not json');
    expect(new RecentFiles(dir).list()).toEqual([]);
  });
});

describe('window state', () => {
  it('remembers size and position; rejects nonsense', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-window-'));
    saveWindowBounds(dir, { x: 10, y: 20, width: 1000, height: 700, maximized: false });
    expect(loadWindowBounds(dir)).toEqual({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      maximized: false,
    });
    writeFileSync(join(dir, 'window-state.json'), JSON.stringify({ width: -5, height: 'x' }));
    expect(loadWindowBounds(dir)).toEqual({ width: 1400, height: 880 });
  });
});
