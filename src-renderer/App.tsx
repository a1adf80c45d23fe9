import { useEffect } from 'react';
import type { TraceHost } from './host/trace-host';
import { useFilesStore } from './state/files-store';
import { TopBar } from './frame/TopBar';
import { ErrorBanner } from './frame/ErrorBanner';
import { DropZone, EmptyState } from './frame/DropZone';
import { FileView } from './timeline/FileView';

export function App({ host }: { host: TraceHost }) {
  const files = useFilesStore((s) => s.files);
  const activeFileId = useFilesStore((s) => s.activeFileId);
  const active = files.find((f) => f.fileId === activeFileId) ?? null;

  useEffect(() => {
    const off = host.api.onProgress((progress) => useFilesStore.getState().progress(progress));
    let cancelled = false;
    // Files named on the command line (or the demo rollout) are opened by main at start-up.
    void host.api.initialFiles().then(async (initial) => {
      if (cancelled) return;
      const listed = await host.api.listFiles();
      const store = useFilesStore.getState();
      for (const file of listed) if (initial.fileIds.includes(file.fileId)) store.addFile(file);
      for (const error of initial.errors) store.addError(error);
      if (initial.compare && initial.fileIds.length >= 2) {
        store.setActive(initial.fileIds[0]);
        store.setCompare(initial.fileIds[1]);
      }
      document.body.dataset.ready = 'true';
    });
    return () => {
      cancelled = true;
      off();
    };
  }, [host]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'o') {
        event.preventDefault();
        document.querySelector<HTMLInputElement>('[data-testid="file-input"]')?.click();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <DropZone host={host}>
      <div className="app">
        <TopBar host={host} />
        <ErrorBanner />
        <main className="workspace">
          {active ? <FileView host={host} file={active} key={active.fileId} /> : <EmptyState />}
        </main>
      </div>
    </DropZone>
  );
}
