import type { GpuProfile } from '../core/model/gpu-profile';
import type { GpuProfileComparison, KernelChange } from '../core/compare/compare-gpu-profiles';

/**
 * `summary --json`'s gpuProfile: per rank HTA's temporal breakdown, overlap and kernel types,
 * the kinds' totals, the top kernels and the largest idle gaps with their causes; across ranks
 * the kernel-type breakdown and the kernels with the most time (utilisation bins stay in the app).
 */
export function gpuProfileJson(profile: GpuProfile) {
  return {
    ranks: profile.ranks.map((rank) => ({
      label: rank.label,
      rank: rank.rank,
      file: rank.file,
      clock: rank.clock,
      kernelCount: rank.kernelCount,
      streams: rank.streams,
      temporalBreakdown: rank.temporalBreakdown,
      commCompOverlapPct: rank.commCompOverlapPct,
      kernelTypes: rank.kernelTypes.map(({ label, us, pct }) => ({ kernelType: label, us, pct })),
      kindTotalsUs: rank.kindTotals,
      topKernels: rank.topKernels,
      idleGaps: rank.idleGaps,
    })),
    kernelTypes: profile.kernelTypes.map(({ label, us, pct }) => ({ kernelType: label, us, pct })),
    topKernels: profile.kernels.slice(0, 20),
    notes: profile.notes,
  };
}

const pct = (n: number) => `${n.toFixed(2)}%`;
const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;

/** The human lines: one per rank with its breakdown, overlap and largest idle gap. */
export function gpuProfileLines(profile: GpuProfile): string[] {
  const width = Math.max(4, ...profile.ranks.map((r) => r.label.length));
  const lines = [
    '',
    `${'rank'.padEnd(width)}  ${'kernel time'.padStart(11)}  ${'idle'.padStart(7)}  ${'compute'.padStart(7)}  ${'non-comp'.padStart(8)}  ${'overlap'.padStart(7)}  largest idle gap`,
  ];
  for (const rank of profile.ranks) {
    const t = rank.temporalBreakdown;
    const gap = rank.idleGaps[0];
    lines.push(
      `${rank.label.padEnd(width)}  ${ms(t.kernelUs).padStart(11)}  ${pct(t.idlePct).padStart(7)}  ${pct(t.computePct).padStart(7)}  ${pct(t.nonComputePct).padStart(8)}  ${(rank.commCompOverlapPct === null ? '-' : pct(rank.commCompOverlapPct)).padStart(7)}  ${gap ? gap.text : '-'}`,
    );
  }
  lines.push(
    '',
    `kernel types (all ranks): ${profile.kernelTypes.map((t) => `${t.label.toLowerCase()} ${t.pct}%`).join(', ')}`,
  );
  return lines;
}

/** `compare A B` of two GPU profiles: the answer, then kinds and kernels by the size of the change. */
export function formatGpuCompareText(
  names: { a: string; b: string },
  comparison: GpuProfileComparison,
  kernelsShown = 20,
): string {
  const table = (rows: KernelChange[], label: (r: KernelChange) => string) => {
    const width = Math.max(6, ...rows.map((r) => label(r).length));
    const head = `${''.padEnd(width)}  ${'A total'.padStart(10)}  ${'B total'.padStart(10)}  ${'Δ'.padStart(10)}  ${'A n'.padStart(6)}  ${'B n'.padStart(6)}  ${'A mean'.padStart(9)}  ${'B mean'.padStart(9)}`;
    const body = rows.map(
      (r) =>
        `${label(r).padEnd(width)}  ${ms(r.a.totalUs).padStart(10)}  ${ms(r.b.totalUs).padStart(10)}  ${signed(r.deltaUs).padStart(10)}  ${String(r.a.count).padStart(6)}  ${String(r.b.count).padStart(6)}  ${usShort(r.a.meanUs).padStart(9)}  ${usShort(r.b.meanUs).padStart(9)}`,
    );
    return [head, ...body].join('\n');
  };
  // the name as written, cut: C++ templates tell apart kernels a short name would merge
  const kernelName = (r: KernelChange) => {
    const name = r.name.replace(/^void /, '');
    return name.length > 60 ? `${name.slice(0, 59)}…` : name;
  };
  return [
    `A  ${names.a}`,
    `B  ${names.b}`,
    '',
    ...comparison.answer,
    '',
    'by kind (biggest |Δ| first)',
    table(comparison.kinds, (r) => r.name),
    '',
    `by kernel (biggest |Δ| first; ${Math.min(kernelsShown, comparison.kernels.length)} of ${comparison.kernels.length})`,
    table(comparison.kernels.slice(0, kernelsShown), kernelName),
  ].join('\n');
}

const signed = (us: number) => `${us >= 0 ? '+' : '−'}${ms(Math.abs(us))}`;
const usShort = (us: number) => (us >= 1000 ? ms(us) : `${Math.round(us)} us`);
