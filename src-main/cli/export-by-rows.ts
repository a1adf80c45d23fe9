import { basename } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { FileByteSource } from '../core/bytes/file-source';
import { streamPerfettoExport } from '../core/export/stream-perfetto-export';
import type { FormatList } from '../core/formats/registry';
import { openPathSource } from '../ingest/open-sources';
import { fileError } from './rows-output';
import { SyncExportFile } from './sync-export-file';
import { terminalProgress } from './terminal-progress';
import { ExportWriteError } from './write-chunks';

/**
 * `export FILE --format perfetto` of a file whose format builds rows one at a time: read twice
 * and never held whole (streamPerfettoExport), each row's events written as they are made.
 * False, having written nothing, when its format cannot: the caller opens the file whole.
 * A failure leaves no file behind (see SyncExportFile.discard) and says what went wrong with
 * the same coded line as the whole-file export.
 */
export function exportByRows(group: string[], output: string, formats?: FormatList): boolean {
  // gzipped when the output's name ends in .gz; '-' (stdout) never is
  const file = new SyncExportFile(output, output.endsWith('.gz'));
  const sources: FileByteSource[] = [];
  let passes: ReturnType<typeof terminalProgress>[] = [];
  try {
    for (const path of group) sources.push(openPathSource(path));
    const size = sources.reduce((sum, source) => sum + source.size, 0);
    passes = [1, 2].map((pass) =>
      terminalProgress(`${basename(group[0])} (read ${pass} of 2)`, size),
    );
    const exported = streamPerfettoExport(sources, file, {
      formats,
      onStreaming: saveMemoryOverSpeed,
      onProgress: (pass, progress) => {
        if (pass === 2) passes[0].done();
        passes[pass - 1].onProgress(progress);
      },
    });
    file.close();
    return exported;
  } catch (error) {
    file.discard();
    if (error instanceof ExportWriteError) throw error;
    throw fileError(group[0], error);
  } finally {
    for (const pass of passes) pass.done();
    for (const source of sources) source.close();
  }
}

/**
 * A slower heap growth for the rest of this process (it ends with the export): a streamed
 * export keeps little alive (the pickle memo, ~1.1 KB a sample) but makes a lot of short-lived
 * garbage, and V8's default growth lets the heap reach several times what is alive before a
 * full collection. Measured on the bench's 100k-sample dump (614 MB), peak against the file:
 * 0.73x by default; growth capped at 10% a collection 0.46x at 2.1x summary's time, at 20%
 * 0.51x, at 50% 0.55x; --optimize-for-size 0.44x but at 3.1x summary's time (it also trades
 * compiled code speed). V8 reads this flag at each collection, so setting it now takes effect.
 */
function saveMemoryOverSpeed(): void {
  setFlagsFromString('--heap-growing-percent=10');
}
