import type { OpenStep } from './open-trace-file';

/**
 * A step of opening: the pipeline's (OpenOptions.onStepEnd), or one the app's worker takes
 * after every row is shown and before it says the file is open (the search texts of rows given
 * at the end, the perf digest, each row's own duration).
 */
export type TimedStep = OpenStep | 'search texts' | 'perf digest' | 'durations';

/** How long each step of opening took (pass `end` as OpenOptions.onStepEnd). */
export interface StepTimer {
  end(step: TimedStep): void;
  /** each finished step and its seconds, in order */
  readonly steps: { step: TimedStep; seconds: number }[];
  /** seconds until the file was read, and until now, and the steps so far */
  timings(): { readSec: number; openSec: number; steps: { step: TimedStep; seconds: number }[] };
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
    timings: () => ({ readSec, openSec: (performance.now() - started) / 1000, steps: [...steps] }),
  };
}
