import { describe, expect, it } from 'vitest';
import type { KernelKind } from '../../../src-main/core/model/gpu-profile';
import {
  commCompOverlapPct,
  kernelTypeTimes,
  type KernelSpan,
} from '../../../src-main/core/formats/chrome/gpu/hta-breakdown';

const KINDS: KernelKind[] = ['computation', 'communication', 'memory'];

/** Kernels of whole microseconds, touching and overlapping often, some of no length. */
function kernels(seed: number, count: number): KernelSpan[] {
  let s = seed;
  const next = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const out: KernelSpan[] = [];
  for (let k = 0; k < count; k++) {
    const startUs = next(400);
    out.push({ startUs, endUs: startUs + next(12), kind: KINDS[next(3)] });
  }
  return out.sort((a, b) => a.startUs - b.startUs);
}

/** Each microsecond's set of kinds running (a bit per KINDS entry), counted one by one. */
function masksByMicrosecond(list: KernelSpan[]): Map<number, number> {
  const byMask = new Map<number, number>();
  for (let us = 0; us < 500; us++) {
    let mask = 0;
    for (const k of list)
      if (k.startUs <= us && us + 1 <= k.endUs) mask |= 1 << KINDS.indexOf(k.kind);
    if (mask > 0) byMask.set(mask, (byMask.get(mask) ?? 0) + 1);
  }
  return byMask;
}

describe("the kinds' unions merged in time order (HTA's kernel-type and overlap figures)", () => {
  it('kernel-type times and the overlap match a count microsecond by microsecond', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const list = kernels(seed, 60);
      const byMask = masksByMicrosecond(list);
      const types = kernelTypeTimes(list);
      expect(types.map((t) => t.us).reduce((a, b) => a + b, 0)).toBe(
        [...byMask.values()].reduce((a, b) => a + b, 0),
      );
      for (const t of types) {
        const mask = t.kinds.reduce((m, kind) => m | (1 << KINDS.indexOf(kind)), 0);
        // a set that runs only at instants (touching kernels) is listed with 0 us
        expect(t.us).toBe(byMask.get(mask) ?? 0);
      }
      let comm = 0;
      let both = 0;
      for (const [mask, us] of byMask) {
        if (mask & 2) comm += us;
        if ((mask & 3) === 3) both += us;
      }
      expect(commCompOverlapPct(list)).toBe(
        comm > 0 ? Math.round((10000 * both) / comm) / 100 : null,
      );
    }
  });
});
