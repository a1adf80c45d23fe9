// Issue 49, finding 2: `summary` of a folder of many tiny traces is linear in their count
// (listing each file's rotated set re-read the folder: 1,000 files 20 s, 4,000 files 218 s).
// Prints seconds, per-file milliseconds and peak RSS for each count; the ratio of per-file
// times between the largest and smallest count is the figure (about 1 when linear).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A folder of `count` one-span OTLP files (each its own rotated set of one). */
function writeTinyFolder(dir, count) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const ns = (s) => (1_780_000_000_000_000_000n + BigInt(s * 1e9)).toString();
  for (let i = 0; i < count; i++) {
    const span = {
      traceId: '0123456789abcdef0123456789abcdef',
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: 'step',
      kind: 1,
      startTimeUnixNano: ns(0),
      endTimeUnixNano: ns(1),
      status: {},
    };
    const line = { resourceSpans: [{ resource: {}, scopeSpans: [{ scope: {}, spans: [span] }] }] };
    writeFileSync(join(dir, `t${i}.jsonl`), `${JSON.stringify(line)}\n`);
  }
}

export function benchFolder({ data, cli, measure, counts }) {
  console.log('\n== summary FOLDER of tiny OTLP files (issue 49: linear in the count)');
  const perFile = [];
  for (const count of counts) {
    const dir = join(data, `folder_${count}`);
    writeTinyFolder(dir, count);
    const run = measure(process.execPath, [cli, 'summary', dir]);
    const ms = (run.seconds * 1000) / count;
    perFile.push(ms);
    console.log(
      `${count} files: ${run.seconds.toFixed(1)} s (${ms.toFixed(1)} ms a file), peak ${run.peakMb.toFixed(0)} MB`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = perFile[perFile.length - 1] / perFile[0];
  console.log(`per-file time, largest count / smallest: ${ratio.toFixed(2)} (goal: under 1.5)`);
}
