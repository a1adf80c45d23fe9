import { countOf } from '../../model/count-of';
import type { SkippedLines } from '../../model/file-format';

const MAX_EXAMPLES = 5;

/**
 * Words a skipped line's example by: its reason alone (the default), or with its code and file
 * for a format that opens a set of files ("request-metrics/no-id: x-09.log line 3: ...").
 */
export type SkipWording = (line: number, reason: string, code: string) => string;

/** Lines skipped while reading, counted, with the first few kept as examples. */
export class LineSkips {
  count = 0;
  readonly examples: { line: number; reason: string }[] = [];

  constructor(
    private readonly maxExamples = MAX_EXAMPLES,
    private readonly wording?: SkipWording,
  ) {}

  /** `code`: the reader's own ('json-lines/...') or the format's, for a wording that shows it */
  skip(line: number, reason: string, code = 'json-lines/skipped'): void {
    this.count++;
    if (this.examples.length < this.maxExamples)
      this.examples.push({ line, reason: this.wording?.(line, reason, code) ?? reason });
  }

  /** the count and examples, as FormatOpened.skippedLines carries them */
  counted(): SkippedLines {
    return { count: this.count, examples: [...this.examples] };
  }

  /**
   * "3 lines skipped (first: line 2 not JSON)" for a format's notices, or null for none; the
   * count worded as the CLI's summary words it, which then leaves the notice out (it lists them)
   */
  notice(): string | null {
    if (this.count === 0) return null;
    const first = this.examples[0];
    // a worded example names its line itself
    const example = this.wording ? first.reason : `line ${first.line} ${first.reason}`;
    return `${countOf(this.count, 'line')} skipped (first: ${example})`;
  }
}
