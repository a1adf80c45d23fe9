import type { ChromeProcess, ChromeThread, ChromeTrace } from '../chrome-trace';
import type { RankEvents } from './rank-figures';

/**
 * A rank's processes (Kineto writes the host process and one per GPU) as one process, so that
 * the Chrome rows make one row per rank: its CPU threads first, then its GPU streams, each a
 * lane group named for what it is. (Span ids carry the rank's prefix from the import: several
 * ranks share a profile.) Every launch points at its kernels' slices through the correlation
 * id, as Kineto's ac2g flows do (flows of the file bind too; a pair bound twice is linked once).
 */
export function mergeRankProcesses(trace: ChromeTrace, events: RankEvents, traceId: string): void {
  const merged: ChromeProcess = {
    pid: traceId,
    traceId,
    name: null,
    labels: null,
    sortIndex: null,
    threads: [],
    asyncTracks: new Map(),
    instants: [],
  };
  const processes = [...trace.processes.values()].sort(
    (a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0) || String(a.pid).localeCompare(String(b.pid)),
  );
  const cpu: ChromeThread[] = [];
  const gpu: { thread: ChromeThread; stream: number }[] = [];
  for (const process of processes) {
    for (const thread of process.threads) {
      const slices = thread.slices;
      for (let i = 0; i < slices.length; i++) slices[i].rowTraceId = traceId;
      const isGpu = events.gpuThreads.has(thread);
      const stream = typeof thread.tid === 'number' ? thread.tid : Number(thread.tid);
      if (isGpu) {
        const device = process.labels ?? `GPU ${String(process.pid)}`;
        thread.name = `${device} stream ${String(thread.tid)}`;
        gpu.push({ thread, stream: Number.isFinite(stream) ? stream : 0 });
      } else {
        if (thread.name === null && process.name !== null) thread.name = process.name;
        cpu.push(thread);
      }
      merged.threads.push(thread);
    }
    for (const [key, track] of process.asyncTracks) {
      for (const slice of track.slices) slice.rowTraceId = traceId;
      merged.asyncTracks.set(`${String(process.pid)}/${key}`, track);
    }
    // one by one: a spread of a million instants overflows the stack
    for (const instant of process.instants) merged.instants.push(instant);
  }
  // CPU threads in the file's order, then streams by device and number
  cpu.forEach((thread, i) => (thread.sortIndex = i));
  gpu.forEach(({ thread }, i) => (thread.sortIndex = cpu.length + i));
  trace.processes = new Map([[traceId, merged]]);
  // a global instant of a rank's file (Kineto's "Record Window End", pid "") is the rank's:
  // one row per rank, not a "global" row per rank
  for (const instant of trace.globalInstants) merged.instants.push(instant);
  trace.globalInstants = [];
  const { kernels } = events;
  for (let i = 0; i < kernels.length; i++) {
    const kernel = kernels[i];
    kernel.slice.category = kernel.kind;
    if (kernel.correlation === null) continue;
    const launch = events.launches.get(kernel.correlation);
    if (launch) (kernel.slice.flowsFrom ??= []).push(launch);
  }
}

/** A slice linked from one slice twice (correlation and an ac2g flow) keeps one link. */
export function dedupeLinks(trace: ChromeTrace): void {
  for (const process of trace.processes.values()) {
    for (const thread of process.threads) {
      const slices = thread.slices;
      for (let i = 0; i < slices.length; i++) {
        const slice = slices[i];
        const from = slice.flowsFrom;
        if (from === null || from.length < 2) continue;
        // nearly always a kernel's launch twice (correlation, then ac2g): no Set for that
        if (from.length === 2) {
          if (from[0] === from[1]) from.pop();
        } else slice.flowsFrom = [...new Set(from)];
      }
    }
  }
}
