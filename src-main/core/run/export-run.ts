import {
  buildPerfettoTrace,
  writePerfettoJson,
  type PerfettoTrace,
} from '../export/perfetto-export';
import type { PackedRow } from '../model/row';
import { unpackItem } from '../rows/packed-items';
import type { RunJoins } from '../model/run';

export interface RunExportFile {
  name: string;
  rows: PackedRow[];
}

/**
 * A whole run as one Perfetto trace: a process per file, all on one clock (microseconds from
 * the run's earliest item, so rank, server and sample lines up), and a flow arrow from each
 * sample's generate span to the SGLang request it made.
 */
export function buildRunPerfetto(files: RunExportFile[], joins: RunJoins): PerfettoTrace {
  let origin = Infinity;
  for (const file of files) for (const row of file.rows) origin = Math.min(origin, row.start);
  if (!Number.isFinite(origin)) origin = 0;
  const trace = buildPerfettoTrace(
    files.map((file) => ({ name: file.name, rows: file.rows, globalStart: origin })),
  );
  const us = (sec: number) => Math.round((sec - origin) * 1e9) / 1e3;
  const threadOf = (file: number, rowId: number) =>
    files[file].rows.findIndex((row) => row.row_id === rowId) + 1;
  joins.links.forEach((link, n) => {
    const client = files[link.client.file].rows.find((r) => r.row_id === link.client.rowId);
    const server = files[link.server.file].rows.find((r) => r.row_id === link.server.rowId);
    const clientSpan = client && unpackItem(client.packed, link.client.itemIndex);
    if (!client || !server || clientSpan?.type !== 'span') return;
    const id = `run-flow-${n + 1}`;
    const common = { name: `request ${link.rid.slice(0, 8)}`, cat: 'run.request', id };
    trace.traceEvents.push(
      {
        ...common,
        ph: 's',
        pid: link.client.file + 1,
        tid: threadOf(link.client.file, link.client.rowId),
        ts: us(clientSpan.start_ts),
        args: { rid: link.rid },
      },
      {
        ...common,
        ph: 'f',
        bp: 'e',
        pid: link.server.file + 1,
        tid: threadOf(link.server.file, link.server.rowId),
        ts: us(server.start),
      },
    );
  });
  return trace;
}

export function writeRunPerfetto(
  files: RunExportFile[],
  joins: RunJoins,
  gzip: boolean,
): Uint8Array {
  return writePerfettoJson(buildRunPerfetto(files, joins), gzip);
}
