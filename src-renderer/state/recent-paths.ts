/**
 * Paths this browser opened lately, newest first (serve mode's recent files: the server keeps
 * none, since a browser may be another user's). The desktop app's come from main (startPage).
 */
const KEY = 'trace-explorer.recent-paths';
const MAX_RECENT = 12;

export function recentPaths(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberPaths(paths: string[]): void {
  const next = [...paths, ...recentPaths().filter((p) => !paths.includes(p))].slice(0, MAX_RECENT);
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(next));
  } catch {
    // storage full or refused (private mode): the list is a convenience
  }
}
