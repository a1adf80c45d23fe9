// Issue 49, finding 2: `summary` of a folder of many tiny traces is linear in their count
// (listing each file's rotated set re-read the folder: 1,000 files 20 s, 4,000 files 218 s).
// Prints seconds, per-file milliseconds and peak RSS for each count; the ratio of per-file
// times between the largest and smallest count is the figure (about 1 when linear).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A folder of `count` one-span OTLP files (each its own rotated set of one). */
function writeTinyFolder(dir, count) {
  let bytes = 0;
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
    const text = `${JSON.stringify(line)}\n`;
    writeFileSync(join(dir, `t${i}.jsonl`), text);
    bytes += text.length;
  }
  return bytes;
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

/** /proc figures of a process: its threads now and its peak RSS (MB). */
function procFigures(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { threads: field('Threads'), peakMb: field('VmHWM') / 1024 };
}

/**
 * Serve mode started on `dir`: seconds until initialFiles answers (it waits until every file
 * named at start is open: the app's own signal), then its threads and peak RSS.
 */
async function serveOpen(cli, dir) {
  const started = process.hrtime.bigint();
  const server = spawn(process.execPath, [cli, 'serve', '--port', '0', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise((found, failed) => {
      let out = '';
      server.stdout.on('data', (chunk) => {
        out += chunk.toString();
        const match = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
        if (match) found(new URL(match[1]));
      });
      server.on('exit', (code) => failed(new Error(`serve exited with ${code}`)));
    });
    const response = await fetch(new URL('/api/call', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace-token': url.searchParams.get('token') },
      body: JSON.stringify({ method: 'initialFiles', args: [] }),
    });
    const { result } = await response.json();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds, opened: result.fileIds.length, errors: result.errors.length, ...procFigures(server.pid) };
  } finally {
    server.kill();
  }
}

/**
 * Serve mode holding a folder of `count` tiny files open (issue 49, finding 2: a thread each
 * made 471 threads and 4.0 GB at 20,000 files): threads and peak RSS beside serve mode holding
 * one of them, in the same run; the bound is README's 16x the files + 256 MiB.
 */
export async function benchServeFolder({ data, cli, counts }) {
  console.log('\n== serve FOLDER of tiny OTLP files: every file held open (issue 49, finding 2)');
  const one = join(data, 'folder_one');
  writeTinyFolder(one, 1);
  const base = await serveOpen(cli, one);
  console.log(`baseline, 1 file: ${base.seconds.toFixed(1)} s, ${base.threads} threads, peak ${base.peakMb.toFixed(0)} MB`);
  rmSync(one, { recursive: true, force: true });
  for (const count of counts) {
    const dir = join(data, `folder_${count}`);
    const bytes = writeTinyFolder(dir, count);
    const run = await serveOpen(cli, dir);
    const bound = (16 * bytes) / 2 ** 20 + 256;
    console.log(
      `${count} files (${(bytes / 1e6).toFixed(1)} MB): ${run.opened} open, ${run.errors} errors, ${run.seconds.toFixed(1)} s (${((run.seconds * 1000) / count).toFixed(1)} ms a file); ` +
        `${run.threads} threads (${run.threads - base.threads} more than for 1 file); peak ${run.peakMb.toFixed(0)} MB, ` +
        `${(run.peakMb - base.peakMb).toFixed(0)} MB more than for 1 file (bound on that: ${bound.toFixed(0)} MB: ${run.peakMb - base.peakMb <= bound ? 'ok' : 'MISSED'})`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
}
