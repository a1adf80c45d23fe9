import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

const STORAGE_KEY = 'trace-explorer-theme';

interface ThemeState {
  choice: ThemeChoice;
  /** what <html data-theme> says; canvases redraw when it changes */
  resolved: ResolvedTheme;
}

/** The theme as state: the ◐ menu and the native menu set it; canvases subscribe to it. */
export const useThemeStore = create<ThemeState>()(() => ({ choice: 'system', resolved: 'light' }));

const darkQuery = () =>
  typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
let followingSystem = false;

/** Sets the resolved theme on <html> (CSS keys off data-theme only). */
function resolveTheme(): void {
  const { choice } = useThemeStore.getState();
  const resolved = choice === 'system' ? (darkQuery()?.matches ? 'dark' : 'light') : choice;
  document.documentElement.dataset.theme = resolved;
  useThemeStore.setState({ resolved });
}

export function applyTheme(choice: ThemeChoice): void {
  useThemeStore.setState({ choice });
  if (!followingSystem) {
    followingSystem = true;
    darkQuery()?.addEventListener('change', resolveTheme);
  }
  resolveTheme();
  try {
    localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // storage may be unavailable; the theme still applies for this session
  }
}

export function restoreTheme(): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // nothing saved
  }
  applyTheme(saved === 'light' || saved === 'dark' ? saved : 'system');
}
