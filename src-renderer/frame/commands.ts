import type { ExportFormat, MenuCommand } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from '../state/files-store';

/** Commands from the native menu or the keyboard that views below the frame listen for. */
export const TRACE_COMMAND_EVENT = 'trace-command';

export function broadcastCommand(command: MenuCommand): void {
  window.dispatchEvent(new CustomEvent<MenuCommand>(TRACE_COMMAND_EVENT, { detail: command }));
}

export function onCommand(listener: (command: MenuCommand) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<MenuCommand>).detail);
  window.addEventListener(TRACE_COMMAND_EVENT, handler);
  return () => window.removeEventListener(TRACE_COMMAND_EVENT, handler);
}

export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_CHANGED_EVENT = 'trace-theme-changed';

const darkQuery = () =>
  typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
let choice: ThemeChoice = 'system';
let followingSystem = false;

/** Sets the resolved theme on <html> (CSS keys off data-theme only) and tells canvases to redraw. */
function resolveTheme(): void {
  const resolved = choice === 'system' ? (darkQuery()?.matches ? 'dark' : 'light') : choice;
  if (document.documentElement.dataset.theme === resolved) return;
  document.documentElement.dataset.theme = resolved;
  window.dispatchEvent(new Event(THEME_CHANGED_EVENT));
}

export function applyTheme(theme: ThemeChoice): void {
  choice = theme;
  if (!followingSystem) {
    followingSystem = true;
    darkQuery()?.addEventListener('change', resolveTheme);
  }
  resolveTheme();
  try {
    localStorage.setItem('trace-explorer-theme', theme);
  } catch {
    // storage may be unavailable; the theme still applies for this session
  }
}

export function restoreTheme(): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem('trace-explorer-theme');
  } catch {
    // nothing saved
  }
  applyTheme(saved === 'light' || saved === 'dark' ? saved : 'system');
}

/** Saves an export through the browser's download (Electron shows its save dialog). */
export async function exportActiveFile(host: TraceHost, format: ExportFormat): Promise<void> {
  const { activeFileId, addError, files } = useFilesStore.getState();
  if (!activeFileId) return;
  const name = files.find((f) => f.fileId === activeFileId)?.name ?? 'file';
  try {
    const exported = await host.api.exportTrace(activeFileId, format);
    const bytes = Uint8Array.from(atob(exported.bytesBase64), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: exported.mime }));
    const link = document.createElement('a');
    link.href = url;
    link.download = exported.fileName;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    addError({
      code: 'export/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: name,
    });
  }
}
