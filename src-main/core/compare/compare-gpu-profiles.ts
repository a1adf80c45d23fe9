import type { GpuProfile, KernelKind, KernelTotal } from '../model/gpu-profile';
import { KERNEL_KINDS } from '../model/gpu-profile';

/** One kernel name (or kind) in A and in B: total time, count and mean, and the change. */
export interface KernelChange {
  name: string;
  kind: KernelKind;
  a: { totalUs: number; count: number; meanUs: number };
  b: { totalUs: number; count: number; meanUs: number };
  deltaUs: number;
  deltaCount: number;
}

export interface GpuProfileComparison {
  /** the answer first: where B's GPU time went compared with A's */
  answer: string[];
  /** per kind, the biggest |Δ| first */
  kinds: KernelChange[];
  /** per kernel name, the biggest |Δ| first */
  kernels: KernelChange[];
  /** each side's ranks' mean temporal breakdown (percent of kernel time) */
  breakdown: Record<'a' | 'b', { idlePct: number; computePct: number; nonComputePct: number }>;
}

const EMPTY = { totalUs: 0, count: 0, meanUs: 0 };
const side = (t: KernelTotal | undefined) =>
  t ? { totalUs: t.totalUs, count: t.count, meanUs: t.meanUs } : EMPTY;
const byDelta = (x: KernelChange, y: KernelChange) =>
  Math.abs(y.deltaUs) - Math.abs(x.deltaUs) || (x.name < y.name ? -1 : 1);

/**
 * Two GPU profiles (the same job before and after a change) kernel by kernel, as HTA's trace
 * diff compares two traces' ops: per kernel name and per kind, total time, count and mean in
 * A and B, sorted by the size of the change; times are summed over each side's ranks.
 */
export function compareGpuProfiles(a: GpuProfile, b: GpuProfile): GpuProfileComparison {
  const inA = new Map(a.kernels.map((k) => [k.name, k]));
  const inB = new Map(b.kernels.map((k) => [k.name, k]));
  const kernels: KernelChange[] = [...new Set([...inA.keys(), ...inB.keys()])].map((name) => {
    const ka = inA.get(name);
    const kb = inB.get(name);
    return changeOf(name, (ka ?? kb)!.kind, side(ka), side(kb));
  });
  kernels.sort(byDelta);
  const kinds = KERNEL_KINDS.map((kind) => {
    const sum = (list: KernelTotal[]) => {
      const of = list.filter((k) => k.kind === kind);
      const totalUs = of.reduce((s, k) => s + k.totalUs, 0);
      const count = of.reduce((s, k) => s + k.count, 0);
      return { totalUs, count, meanUs: count > 0 ? totalUs / count : 0 };
    };
    return changeOf(kind, kind, sum(a.kernels), sum(b.kernels));
  }).sort(byDelta);
  const breakdown = { a: meanBreakdown(a), b: meanBreakdown(b) };
  return { answer: answerOf(kinds, kernels, breakdown), kinds, kernels, breakdown };
}

function changeOf(
  name: string,
  kind: KernelKind,
  a: KernelChange['a'],
  b: KernelChange['b'],
): KernelChange {
  return { name, kind, a, b, deltaUs: b.totalUs - a.totalUs, deltaCount: b.count - a.count };
}

function meanBreakdown(profile: GpuProfile) {
  const n = Math.max(1, profile.ranks.length);
  const mean = (pick: (r: GpuProfile['ranks'][number]) => number) =>
    Math.round((100 * profile.ranks.reduce((s, r) => s + pick(r), 0)) / n) / 100;
  return {
    idlePct: mean((r) => r.temporalBreakdown.idlePct),
    computePct: mean((r) => r.temporalBreakdown.computePct),
    nonComputePct: mean((r) => r.temporalBreakdown.nonComputePct),
  };
}

const ms = (us: number) => `${us >= 0 ? '+' : '−'}${(Math.abs(us) / 1000).toFixed(1)} ms`;

function answerOf(
  kinds: KernelChange[],
  kernels: KernelChange[],
  breakdown: GpuProfileComparison['breakdown'],
): string[] {
  const total = kinds.reduce((s, k) => s + k.deltaUs, 0);
  const totalA = kinds.reduce((s, k) => s + k.a.totalUs, 0);
  const lines = [
    `B's kernels ran ${(Math.abs(total) / 1000).toFixed(1)} ms ${total >= 0 ? 'longer' : 'shorter'} in total than A's${totalA > 0 ? ` (${total >= 0 ? '+' : ''}${((100 * total) / totalA).toFixed(1)}%)` : ''}; by kind: ${kinds.map((k) => `${k.name} ${ms(k.deltaUs)}`).join(', ')}.`,
  ];
  const top = kernels.slice(0, 3).filter((k) => k.deltaUs !== 0);
  if (top.length > 0) {
    lines.push(
      `Most of it: ${top.map((k) => `${shortName(k.name)} ${ms(k.deltaUs)} (${k.a.count} → ${k.b.count} launches)`).join('; ')}.`,
    );
  }
  lines.push(
    `GPU idle ${breakdown.a.idlePct.toFixed(2)}% → ${breakdown.b.idlePct.toFixed(2)}% of kernel time (mean over ranks).`,
  );
  return lines;
}

/** A C++ kernel name without its return type, template and parameters: enough to say which. */
export function shortName(name: string): string {
  const cut = name.replace(/^void\s+/, '').split(/[<(]/)[0];
  return cut.length > 0 ? cut : name;
}
