import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../src-main/cli/terminal-progress';
import type { OpenProgressReport } from '../../../src-main/core/open/open-trace-file';
import { ingest } from '../../../src-main/ingest/open-sources';
import { FIXTURES, OTLP, SLIME } from '../../support/fixtures';

// The CLI's progress line says what the open is doing in the format's words: the reports a real
// open of each fixture makes, each drawn as the line a terminal would show.

/** Every progress report of opening `path`, and the line each would draw. */
function linesOf(path: string): { reports: OpenProgressReport[]; lines: string[] } {
  const reports: OpenProgressReport[] = [];
  ingest({ sources: [{ kind: 'path', path }] }, { onProgress: (p) => reports.push(p) });
  const lines = reports.map((p) => progressLine('f', 1e6, p));
  return { reports, lines };
}

describe("the CLI's progress line", () => {
  it('a Chrome trace: events read, no samples named, its rows built without a count', () => {
    const path = resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json');
    const { reports, lines } = linesOf(path);
    expect(reports.some((p) => p.phase === 'building')).toBe(true);
    for (const line of lines) expect(line).not.toMatch(/samples/);
    expect(lines.filter((line) => line.includes('building'))).toContain('f: building rows…');
    // the last reading report counts every element of the events array
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown[] | { traceEvents: unknown[] };
    const events = Array.isArray(parsed) ? parsed.length : parsed.traceEvents.length;
    const read = reports.filter((p) => p.phase === 'reading');
    expect(progressLine('f', 1e6, read[read.length - 1])).toMatch(
      new RegExp(`, ${events} events read$`),
    );
  });

  it('an OpenTelemetry file: spans read, then rows of its traces', () => {
    const { reports, lines } = linesOf(resolve(OTLP, 'sglang_otel_trace.json'));
    const read = reports.filter((p) => p.phase === 'reading');
    expect(read.length).toBeGreaterThan(0);
    const last = read[read.length - 1];
    expect(progressLine('f', 1e6, last)).toMatch(new RegExp(`, ${last.samplesRead} spans read$`));
    // 1396 spans in 20 traces (tests/fixtures/otlp/README.md), one row each
    expect(last.samplesRead).toBe(1396);
    expect(lines).toContain('f: building rows of 20 traces…');
  });

  it('a slime dump: samples, as before', () => {
    const { lines } = linesOf(resolve(SLIME, 'rollout_7.pt'));
    expect(lines.some((line) => /^f: building rows of \d+ samples…$/.test(line))).toBe(true);
  });

  it('a report without a word says no count', () => {
    expect(progressLine('a.json', 10, { bytesRead: 5, samplesRead: 0, phase: 'reading' })).toBe(
      'a.json: reading 50% (0 MB of 0 MB)',
    );
    expect(progressLine('a.json', 10, { bytesRead: 10, samplesRead: 0, phase: 'building' })).toBe(
      'a.json: building rows…',
    );
  });
});
