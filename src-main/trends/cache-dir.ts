import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the headless commands and serve mode keep per-file trend figures: the platform's cache
 * folder (the desktop app uses its own data folder). TRACE_EXPLORER_CACHE_DIR overrides it.
 */
export function defaultCacheDir(): string {
  const override = process.env.TRACE_EXPLORER_CACHE_DIR;
  if (override) return override;
  if (process.platform === 'darwin') return join(homedir(), 'Library/Caches/trace-explorer/trends');
  if (process.platform === 'win32') {
    return join(
      process.env.LOCALAPPDATA ?? join(homedir(), 'AppData/Local'),
      'trace-explorer/trends',
    );
  }
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'trace-explorer/trends');
}
