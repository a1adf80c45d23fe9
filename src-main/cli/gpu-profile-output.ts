import type { GpuProfile } from '../core/model/gpu-profile';

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
