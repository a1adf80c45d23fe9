import { beforeEach, describe, expect, it } from 'vitest';
import type { FileSummary, OpenProgress } from '../../../src-main/core/api/trace-api';
import { useFilesStore } from '../../../src-renderer/state/files-store';
import { emptyFilesStore } from '../renderer/empty-files-store';

// Issue 18, the renderer's side of rows streaming: a file's tab shows from its first preview
// (OpenProgress.file), follows its growing summary, and goes if the file is not opened after all.
const summary = (rows: number, streaming: boolean): FileSummary =>
  ({
    fileId: 'f1',
    name: 'rollout_0.pt',
    rows,
    ...(streaming ? { streaming: true } : {}),
  }) as FileSummary;
const progress = (phase: OpenProgress['phase'], file?: FileSummary): OpenProgress => ({
  openId: 'o1',
  name: 'rollout_0.pt',
  bytesRead: 10,
  bytesTotal: 100,
  samplesRead: file?.rows ?? 0,
  phase,
  file,
});

describe('files store: previews of a file being read', () => {
  beforeEach(emptyFilesStore);

  it('shows the tab from the first preview and replaces its summary as rows arrive', () => {
    const store = useFilesStore.getState();
    store.startOpening('o1', 'rollout_0.pt', 100);
    store.progress(progress('reading', summary(50, true)));
    expect(useFilesStore.getState().files.map((f) => f.rows)).toEqual([50]);
    expect(useFilesStore.getState().activeFileId).toBe('f1');
    store.progress(progress('reading', summary(100, true)));
    expect(useFilesStore.getState().files.map((f) => f.rows)).toEqual([100]);
    // the whole file (open's answer) takes the tab's place; finishing keeps it
    store.replaceFile('f1', summary(600, false));
    store.finishOpening('o1');
    expect(useFilesStore.getState().files.map((f) => [f.rows, f.streaming])).toEqual([
      [600, undefined],
    ]);
  });

  it('drops the tab when the file fails after its first rows were shown', () => {
    const store = useFilesStore.getState();
    store.startOpening('o1', 'rollout_0.pt', 100);
    store.progress(progress('reading', summary(50, true)));
    store.progress(progress('failed'));
    expect(useFilesStore.getState().files).toEqual([]);
    expect(useFilesStore.getState().activeFileId).toBeNull();
  });

  it('drops it too when open answers (failed) before the progress event does', () => {
    const store = useFilesStore.getState();
    store.startOpening('o1', 'rollout_0.pt', 100);
    store.progress(progress('reading', summary(50, true)));
    store.finishOpening('o1');
    expect(useFilesStore.getState().files).toEqual([]);
  });
});
