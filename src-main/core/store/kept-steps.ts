/** The value a stepwise job makes, every step taken now (the CLI; a worker takes them in turns). */
export function finishSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Per object, a value made a step at a time and kept: a worker's warm-up takes a step per idle
 * turn (`warm`), and a call that needs the value first takes the steps left at once (`value`).
 * `args` go to `make` when the first of the two asks (a test's smaller steps).
 */
export class KeptSteps<K extends object, T, A extends unknown[] = []> {
  private readonly kept = new WeakMap<
    K,
    { steps: Generator<void, T, void>; done: boolean; value: T | undefined }
  >();

  constructor(private readonly make: (key: K, ...args: A) => Generator<void, T, void>) {}

  value(key: K, ...args: A): T {
    const progress = this.progressOf(key, args);
    while (!progress.done) this.step(progress);
    return progress.value as T;
  }

  *warm(key: K, ...args: A): Generator<void, void, void> {
    const progress = this.progressOf(key, args);
    while (!progress.done) {
      this.step(progress);
      if (!progress.done) yield;
    }
  }

  private step(progress: { steps: Generator<void, T, void>; done: boolean; value: T | undefined }) {
    const step = progress.steps.next();
    if (step.done) {
      progress.done = true;
      progress.value = step.value;
    }
  }

  private progressOf(key: K, args: A) {
    let progress = this.kept.get(key);
    if (!progress) {
      progress = { steps: this.make(key, ...args), done: false, value: undefined };
      this.kept.set(key, progress);
    }
    return progress;
  }
}
