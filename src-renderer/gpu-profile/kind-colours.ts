import type { KernelKind } from '../../src-main/core/model/gpu-profile';

/** One colour per kernel kind (and idle), the same in the breakdown, the legend and the strip. */
export const KIND_COLOURS: Record<KernelKind | 'idle' | 'non-compute', string> = {
  computation: '#4e79a7',
  communication: '#f28e2b',
  memory: '#59a14f',
  'non-compute': '#f28e2b',
  idle: '#bab0ac',
};

/** "12.3 ms", "840 us": the unit people read GPU times in. */
export function formatUs(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1000) return `${(us / 1000).toFixed(us >= 1e5 ? 0 : 1)} ms`;
  return `${Math.round(us)} us`;
}

export const formatPct = (pct: number | null) => (pct === null ? '–' : `${pct.toFixed(2)}%`);
