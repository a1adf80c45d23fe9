import type { ByteSource } from '../../bytes/byte-source';
import type { PyValue } from '../../model/py-value';
import { buildPdView } from '../../rows/pd-lanes';
import { buildRow } from '../../rows/build-rows';
import { isDict } from '../../rows/python-values';
import type { FormatOpenOptions, RowSink } from '../format-descriptor';
import { readSlimeDump } from './read-slime-dump';

/**
 * A dump's rows one at a time (FormatDescriptor.streamRows): each sample's row is built as the
 * pickle appends the sample (the same row, PD view included, as `open` builds), handed to
 * `sink`, and the sample is then replaced by null in the list, so that neither the sample nor
 * its trace outlives its row (with the pickle memo forgetting finished dicts, nothing of it
 * stays). No samples list, perf keys or notices are kept: what is left at the end is the
 * dump's skeleton (a list of nulls, and the samples without a trace).
 */
export function streamSlimeRows(
  source: ByteSource,
  options: Pick<FormatOpenOptions, 'onProgress' | 'shouldCancel'>,
  sink: RowSink,
): void {
  let list: PyValue[] | null = null;
  let done = 0;
  let given = 0;
  const tally = { skippedEvents: 0 };
  const catchUp = (samples: PyValue[]) => {
    // another list: the reader's first pick was not the samples list (it then gave no row) or
    // the dump is read again; rows already given are not this list's
    if (samples !== list) {
      if (given > 0) sink.restart();
      list = samples;
      done = 0;
      given = 0;
    }
    for (; done < samples.length; done++) {
      const sample = samples[done];
      // only a sample (a dict with a trace) is let go: a list picked by mistake holds dicts of
      // a sample (messages, trace events) that the sample still needs
      if (!isDict(sample) || !('trace' in sample)) continue;
      const row = buildRow(sample, done, tally);
      samples[done] = null;
      if (row === null) continue;
      sink.row(buildPdView(row, { giveUpRow: true }));
      given++;
    }
  };
  const dump = readSlimeDump(source, {
    onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
    onSamples: catchUp,
  });
  // a list the pickle built in one step (LIST) was never seen while it was read
  catchUp(dump.samples);
}
