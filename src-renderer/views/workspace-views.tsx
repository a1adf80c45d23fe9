import { useHost } from '../host/host-context';
import { useFilesStore } from '../state/files-store';
import { useTrendsStore } from '../state/trends-store';
import { CompareView } from '../compare/CompareView';
import { TrendsView } from '../trends/TrendsView';
import type { FileSummary } from '../../src-main/core/api/trace-api';

/** The active file against the one picked to compare with. */
export function CompareWorkspace({ file }: { file: FileSummary | null }) {
  const host = useHost();
  const compared = useFilesStore((s) => s.files.find((f) => f.fileId === s.compareFileId));
  if (!file || !compared) return null;
  return (
    <CompareView
      host={host}
      fileA={file}
      fileB={compared}
      onExit={() => useFilesStore.getState().setCompare(null)}
      key={`${file.fileId}:${compared.fileId}`}
    />
  );
}

/** The trends tab that is active (a folder of a run's rollout dumps). */
export function TrendsWorkspace() {
  const set = useTrendsStore((s) => s.sets.find((t) => t.id === s.activeId) ?? null);
  return set ? <TrendsView set={set} key={set.id} /> : null;
}
