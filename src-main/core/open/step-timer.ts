import type { OpenStep } from './open-trace-file';

/** How long each step of opening took (pass `end` as OpenOptions.onStepEnd). */
export interface StepTimer {
  end(step: OpenStep): void;
  /** each finished step and its seconds, in order */
  readonly steps: { step: OpenStep; seconds: number }[];
  /** seconds until the file was read, and until now */
  timings(): { readSec: number; openSec: number };
}

export function stepTimer(): StepTimer {
  const started = performance.now();
  let last = started;
  let readSec = NaN;
  const steps: StepTimer['steps'] = [];
  return {
    steps,
    end(step) {
      const now = performance.now();
      steps.push({ step, seconds: (now - last) / 1000 });
      if (step === 'read') readSec = (now - started) / 1000;
      last = now;
    },
    timings: () => ({ readSec, openSec: (performance.now() - started) / 1000 }),
  };
}
