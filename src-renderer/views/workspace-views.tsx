import { useHost } from '../host/host-context';
import { useFilesStore } from '../state/files-store';
import { useTrendsStore } from '../state/trends-store';
import { CompareView } from '../compare/CompareView';
import { TrendsView } from '../trends/TrendsView';
import { showRunTrends } from '../trends/open-trends';
import { RunView } from '../run/RunView';
import { useRunStore } from '../run/run-store';
import { GroupsView } from '../groups/GroupsView';
import type { FileSummary } from '../../src-main/core/api/trace-api';

/** Shown when a run tab is active. */
export function useRunShown(): boolean {
  return useRunStore((s) => s.activeId !== null);
}

/** Shown when a trends tab is active. */
export function useTrendsShown(): boolean {
  return useTrendsStore((s) => s.activeId !== null);
}

/** Shown when a file is active and another is picked to compare with it. */
export function useCompareShown(file: FileSummary | null): boolean {
  const compared = useFilesStore((s) => s.files.some((f) => f.fileId === s.compareFileId));
  return file !== null && compared;
}

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

/** The run tab that is active (a run's files on one clock, joined). */
export function RunWorkspace() {
  const host = useHost();
  const run = useRunStore((s) => s.runs.find((r) => r.id === s.activeId) ?? null);
  if (!run) return null;
  // a shared report has no trends to read: it offers none
  const onTrends = host.kind === 'report' ? undefined : () => showRunTrends(host, run.paths);
  return <RunView host={host} run={run} key={run.id} onTrends={onTrends} />;
}

/** A file's GRPO groups (issue 17): one line per group. */
export function GroupsTab({ file }: { file: FileSummary }) {
  const host = useHost();
  return <GroupsView host={host} file={file} />;
}
