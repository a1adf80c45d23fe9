/** Types of real-shaped-samples.mjs (see its comments) for the TypeScript tests that use it. */
export interface SampleTemplates {
  path: string;
  /** the samples of the dump, as ranges of its opcodes */
  samples: { start: number; end: number }[];
}

export function readTemplates(path: string): SampleTemplates;

/** opcode counts of the dump's samples, by opcode name */
export function samplesOpcodeMix(templates: SampleTemplates): {
  samples: number;
  counts: Record<string, number>;
};
