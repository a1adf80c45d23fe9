import type { PdRole } from '../model/row';

/** Flat PD keys of June 2026 dumps, in the fixed phase order of TRACE_MODEL section 4. */
export const PD_FLAT_KEYS: Record<PdRole, { key: string; phase: string }[]> = {
  prefill: ['bootstrap_queue', 'bootstrap', 'alloc_wait', 'forward', 'transfer_queue'].map(
    (phase) => ({
      key: `pd_prefill_${phase}_duration`,
      phase,
    }),
  ),
  decode: ['prealloc', 'bootstrap', 'alloc_wait', 'transfer', 'forward'].map((phase) => ({
    key: `pd_decode_${phase}_duration`,
    phase,
  })),
};

/**
 * (ours) March-June 2026 dumps also carry two unprefixed prefill keys that slime's current
 * viewer ignores; we read them as the prefill bootstrap and alloc-wait phases.
 */
export const PD_OLDER_PREFILL_KEYS: { key: string; phase: string }[] = [
  { key: 'pd_bootstrap_duration', phase: 'bootstrap' },
  { key: 'pd_alloc_waiting_duration', phase: 'alloc_wait' },
];
