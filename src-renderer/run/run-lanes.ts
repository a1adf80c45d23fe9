import type { RowView, RunResult } from '../../src-main/core/api/trace-api';
import { shiftRow, type LaneGroup, type LaneRow } from '../timeline/lane-group';
import { leadingExpanded } from '../timeline/row-layout';
import { summedBarCounts, type SpanNameCount } from '../timeline/legend-entries';
import { keyOf, type SampleRowRef } from './run-model';

/**
 * What RunDetails shows (its RunSelection, the same shape: declared here too so this module,
 * and its tests, need no component).
 */
export type RunSelection =
  | { kind: 'sample'; file: number; rowId: number }
  | { kind: 'server'; file: number; rowId: number; rid: string }
  | { kind: 'trainer'; file: number; rowId: number; index: number }
  | { kind: 'gpu'; file: number; rowId: number; index: number };

// The run tab's lane groups: its trainer processes, then its samples, each sample's SGLang
// requests under it when opened, then each GPU profile's ranks. Keys say which file and row a lane row is (and a request's
// rid), so a selection in the timeline maps back to the run's own selection and back.

type Link = RunResult['joins']['links'][number];

/** A trainer process's row, fetched once with its file's short name. */
export interface TrainerRow {
  file: number;
  /** the folder and file name: what tells two timelines of one rank apart */
  fileName: string;
  /** on the run's clock */
  row: RowView;
}

/** The last two parts of a path: `comm_timeline/slime-trainer-0.jsonl`. */
export function shortPath(path: string): string {
  return path.split(/[/\\]/).slice(-2).join('/');
}

/** A trainer file's rows as trainer lanes, moved onto the run's clock by `shiftSec`. */
export function trainerRowsOf(
  file: number,
  summary: { name: string; path: string | null },
  rows: readonly RowView[],
  shiftSec: number,
): TrainerRow[] {
  const fileName = shortPath(summary.path ?? summary.name);
  return rows.map((row) => ({ file, fileName, row: shiftRow(row, shiftSec) }));
}

/**
 * The trainer lanes in their order: by file name, then row. Files come in any order, so a
 * rank's place does not depend on which file was read first.
 */
export function byTrainerOrder(a: TrainerRow, b: TrainerRow): number {
  return (
    (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0) || a.row.rowId - b.row.rowId
  );
}

/** The run's links by the sample they start from (keyOf): a run may hold 100k samples. */
export function linksBySampleOf(result: Pick<RunResult, 'joins'>): Map<string, Link[]> {
  const map = new Map<string, Link[]>();
  for (const link of result.joins.links) {
    const key = keyOf(link.client.file, link.client.rowId);
    const list = map.get(key);
    if (list) list.push(link);
    else map.set(key, [link]);
  }
  return map;
}

export const trainerKey = (file: number, rowId: number) => `t:${file}:${rowId}`;
export const sampleKey = (file: number, rowId: number) => `s:${file}:${rowId}`;
export const gpuKey = (file: number, rowId: number) => `g:${file}:${rowId}`;
export const serverKey = (link: { server: { file: number; rowId: number }; rid: string }) =>
  `v:${link.server.file}:${link.server.rowId}:${link.rid}`;

/** What a lane row's key names: its kind, file and row (and a request's rid). */
export function parseLaneKey(
  key: string,
): { kind: 't' | 's' | 'v' | 'g'; file: number; rowId: number; rid: string } | null {
  const [kind, file, rowId, ...rid] = key.split(':');
  if (kind !== 't' && kind !== 's' && kind !== 'v' && kind !== 'g') return null;
  return { kind, file: Number(file), rowId: Number(rowId), rid: rid.join(':') };
}

/** The run's selection for a lane selection (a trainer row without an item selects nothing). */
export function runSelectionOf(key: string, index: number | null): RunSelection | null {
  const parsed = parseLaneKey(key);
  if (!parsed) return null;
  const { kind, file, rowId, rid } = parsed;
  if (kind === 's') return { kind: 'sample', file, rowId };
  if (kind === 'v') return { kind: 'server', file, rowId, rid };
  if (index === null) return null;
  return kind === 'g'
    ? { kind: 'gpu', file, rowId, index }
    : { kind: 'trainer', file, rowId, index };
}

/** The lane row a run selection shows as selected. */
export function laneKeyOf(selection: RunSelection): string {
  if (selection.kind === 'sample') return sampleKey(selection.file, selection.rowId);
  if (selection.kind === 'trainer') return trainerKey(selection.file, selection.rowId);
  if (selection.kind === 'gpu') return gpuKey(selection.file, selection.rowId);
  return serverKey({ server: selection, rid: selection.rid });
}

export function runLaneGroups(input: {
  trainer: TrainerRow[];
  samples: SampleRowRef[];
  /** fetched sample rows, by keyOf(file, rowId), on the run's clock */
  views: Map<string, RowView>;
  serverViews: Map<string, RowView>;
  linksBySample: Map<string, Link[]>;
  opened: Set<string>;
  /** GPU profiles of the run, each a group of its ranks; absent: none */
  gpu?: GpuProfileLanes[];
  /** the trainer's and the samples' spans as their files counted them (runBarCounts) */
  barCounts?: RunBarCounts;
}): LaneGroup[] {
  const trainer: LaneRow[] = input.trainer.map((t) => ({
    key: trainerKey(t.file, t.row.rowId),
    label: t.row.source ?? `trainer file ${t.file}`,
    // the folder tells two timelines of one rank apart (comm_timeline vs comm_timeline_v1)
    detail: t.fileName.split('/')[0],
    title: `${t.row.source ?? ''} (${t.fileName})`,
    laneCount: t.row.laneCount,
    row: t.row,
    expanded: true,
  }));
  const samples: LaneRow[] = [];
  for (const s of input.samples) {
    const key = keyOf(s.file, s.rowId);
    const view = input.views.get(key);
    const open = input.opened.has(key);
    samples.push({
      key: sampleKey(s.file, s.rowId),
      label: `r${String(s.rolloutId)} #${String(view?.sampleIndex ?? s.rowId)}`,
      badge: s.stale ? 'stale' : s.links > 1 ? `${s.links} req` : undefined,
      mark: s.stale ? 'stale' : undefined,
      laneCount: view?.laneCount ?? 1,
      row: view,
      // opened: its own lanes too, above its requests' threads
      expanded: open,
      opens: s.links > 0 ? (open ? 'open' : 'closed') : undefined,
    });
    if (!open) continue;
    for (const link of input.linksBySample.get(key) ?? []) {
      const server = input.serverViews.get(keyOf(link.server.file, link.server.rowId));
      samples.push({
        key: serverKey(link),
        label: `SGLang request ${link.rid.slice(0, 8)}`,
        title: `SGLang request ${link.rid}`,
        laneCount: server?.laneCount ?? 1,
        row: server,
        expanded: true,
        depth: 1,
      });
    }
  }
  return [
    { id: 'trainer', title: 'Trainer', rows: trainer, barCounts: input.barCounts?.trainer },
    { id: 'samples', title: 'Samples', rows: samples, barCounts: input.barCounts?.samples },
    ...(input.gpu ?? []).map(gpuLaneGroup),
  ];
}

export interface RunBarCounts {
  trainer: SpanNameCount[];
  samples: SpanNameCount[];
}

/**
 * The spans of the run's trainer files and of its sample files, each summed over its files'
 * counts (FileSummary.barCounts, made as each file's worker built its rows): the legend's
 * counts over the whole run before its rows are fetched.
 */
export function runBarCounts(result: Pick<RunResult, 'files'>): RunBarCounts {
  const sum = (role: 'trainer' | 'samples') =>
    summedBarCounts(
      result.files.filter((entry) => entry.role === role).map((entry) => entry.file.barCounts),
    );
  return { trainer: sum('trainer'), samples: sum('samples') };
}

/** A GPU profile of a run: its ranks' rows, on the run's clock, and how each got there. */
export interface GpuProfileLanes {
  file: number;
  /** its name in the run, told apart from another file of that name (distinctTabNames) */
  fileName: string;
  /** the rank rows, on the run's clock (epoch ranks placed, own-clock ranks shifted by hand) */
  ranks: { row: RowView; clock: 'epoch' | 'own' }[];
  /** where the own-clock ranks' start is put, seconds on the run's clock */
  offsetSec: number;
  /** rank rows (by key) the user opened or closed: flipped against their default (`fit`) */
  toggled: ReadonlySet<string>;
  /**
   * the plot's height and lane height the ranks open by default in, as the file's timeline
   * opens them: the first rank, and the next ones while they fit (leadingExpanded); every rank
   * when not given (a picture, drawn whole)
   */
  fit?: { height: number; laneHeight: number };
  /** the file's spans as its worker counted them (FileSummary.barCounts) */
  barCounts?: readonly SpanNameCount[];
}

function gpuLaneGroup(gpu: GpuProfileLanes): LaneGroup {
  const own = gpu.ranks.some((r) => r.clock === 'own');
  const openByDefault = gpu.fit
    ? leadingExpanded(
        gpu.ranks.map((r) => r.row.laneCount),
        gpu.fit.height,
        gpu.fit.laneHeight,
      )
    : gpu.ranks.length;
  return {
    id: `gpu-${gpu.file}`,
    // the file's name, with folders only when another file of the run has its name: the label
    // column is narrow, and the note must show
    title: `GPU · ${gpu.fileName}`,
    note: own ? `own clock ${formatOffset(gpu.offsetSec)}` : 'epoch clock',
    shiftable: own,
    barCounts: gpu.barCounts,
    rows: gpu.ranks.map(({ row, clock }, index) => {
      const key = gpuKey(gpu.file, row.rowId);
      const open = index < openByDefault !== gpu.toggled.has(key);
      return {
        key,
        label: row.source ?? `rank row ${row.rowId}`,
        detail: clock === 'epoch' ? 'epoch clock' : 'own clock',
        title: `${row.source ?? ''} (${gpu.fileName}): ${clock === 'epoch' ? "on the epoch clock (the trace's baseTimeNanoseconds)" : 'on its own clock, shifted by hand'}`,
        laneCount: row.laneCount,
        row,
        expanded: open,
        opens: row.laneCount > 1 ? (open ? 'open' : 'closed') : undefined,
        mark: clock,
      };
    }),
  };
}

/** An own-clock profile's place on the run's clock: "+1.250 s". */
export function formatOffset(sec: number): string {
  return `${sec < 0 ? '−' : '+'}${Math.abs(sec).toFixed(3)} s`;
}
