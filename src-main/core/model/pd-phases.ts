import type { PdRole } from './row';

/**
 * PD phases in the fixed order of TRACE_MODEL section 4, each with a fixed colour so that a
 * phase looks the same in every row, file and view. The renderer imports this table as a value
 * (an exception to the types-only rule, listed in scripts/check-layers.mjs).
 */
export const PD_PHASES: readonly { role: PdRole; phase: string; colour: string }[] = [
  { role: 'prefill', phase: 'bootstrap_queue', colour: '#9ecae1' },
  { role: 'prefill', phase: 'bootstrap', colour: '#6baed6' },
  { role: 'prefill', phase: 'alloc_wait', colour: '#fdae6b' },
  { role: 'prefill', phase: 'forward', colour: '#3182bd' },
  { role: 'prefill', phase: 'transfer_queue', colour: '#c6dbef' },
  { role: 'decode', phase: 'prealloc', colour: '#c7e9c0' },
  { role: 'decode', phase: 'bootstrap', colour: '#a1d99b' },
  { role: 'decode', phase: 'alloc_wait', colour: '#fd8d3c' },
  { role: 'decode', phase: 'transfer', colour: '#74c476' },
  { role: 'decode', phase: 'forward', colour: '#31a354' },
];

export function pdPhaseColour(role: PdRole, phase: string): string {
  return PD_PHASES.find((p) => p.role === role && p.phase === phase)?.colour ?? '#999999';
}
