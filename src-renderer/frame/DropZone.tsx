import { useEffect, useState, type ReactNode } from 'react';
import { useHost } from '../host/host-context';
import { openFiles } from '../opening/open-files';
import { useFilesStore } from '../state/files-store';

/** The whole window accepts dropped files; an overlay says so while something is dragged over. */
export function DropZone({ children }: { children: ReactNode }) {
  const host = useHost();
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    // a shared report opens no other file: a drop there is taken (the browser would leave the
    // report for the dropped file) and nothing is offered
    const frozen = host.kind === 'report';
    let depth = 0;
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const onEnter = (event: DragEvent) => {
      if (!hasFiles(event) || frozen) return;
      depth += 1;
      setDragging(true);
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      event.preventDefault();
      depth = 0;
      setDragging(false);
      if (frozen) return;
      const files = Array.from(event.dataTransfer?.files ?? []);
      // Two files dropped at once are two rollouts to compare.
      if (files.length > 0) {
        void openFiles(host, files).then((ids) => {
          if (files.length === 2 && ids.length === 2) {
            useFilesStore.getState().setActive(ids[0]);
            useFilesStore.getState().setCompare(ids[1]);
          }
        });
      }
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [host]);

  return (
    <div className="drop-zone-host" data-testid="drop-zone">
      {children}
      {dragging && <div className="drop-overlay">Drop files or folders here</div>}
    </div>
  );
}
