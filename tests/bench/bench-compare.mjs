// Comparing two big dumps in the app's own path (serve mode, one ingest worker per file): both
// files opened and whole, then `compare(a, b)` as the renderer calls it over HTTP, first and
// again, with the answer's size; then the matched samples' rows as the compare view's table
// asks for its first screen. The process's own clock is not the page's: this is the call alone.
import { spawn } from 'node:child_process';
import { call } from './serve-call.mjs';


/**
 * Serve mode on A and B; waits until both are whole and `settleMs` more (the workers warm their
 * indexes and compare digests after opening, as they would while a user looks at the files),
 * then times compare. Returns each call's milliseconds and answer bytes.
 */
export async function benchCompare(cli, pathA, pathB, { settleMs = 15_000 } = {}) {
  const port = 5200 + Math.floor(Math.random() * 200);
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--token', 'bench', pathA, pathB], {
    stdio: 'ignore',
  });
  try {
    let files = [];
    const started = performance.now();
    for (;;) {
      const listed = await call(port, 'listFiles', []).catch(() => null);
      files = listed?.json?.result ?? [];
      if (files.length === 2 && files.every((f) => !f.streaming && f.rows > 0)) break;
      if (child.exitCode !== null) throw new Error('serve mode exited before the files opened');
      await new Promise((r) => setTimeout(r, 100));
    }
    const openSec = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, settleMs));
    const [a, b] = files;
    const timed = async (label, method, args) => {
      const t = performance.now();
      const answer = await call(port, method, args);
      const ms = performance.now() - t;
      if (answer.json?.error) throw new Error(`${label}: ${String(answer.json.error).slice(0, 200)}`);
      return { label, ms, bytes: answer.bytes, json: answer.json };
    };
    const first = await timed('compare', 'compare', [a.fileId, b.fileId]);
    const again = await timed('compare again', 'compare', [a.fileId, b.fileId]);
    const result = first.json.result;
    const matched = result.matched;
    // old answers: a list of {aRowId, bRowId, key}; new ones: typed columns, base64 over HTTP
    const matchedCount = Array.isArray(matched) ? matched.length : matchedLength(matched);
    const screen = Array.from({ length: Math.min(40, a.rows) }, (_, i) => i);
    const rows = await timed('matched samples, first screen of rows (A and B)', 'getRows', [a.fileId, screen]);
    return { openSec, rows: [a.rows, b.rows], matchedCount, matchedBy: result.matchedBy, interactions: [first, again, rows] };
  } finally {
    child.kill();
  }
}

function matchedLength(matched) {
  const column = matched?.aRowIds;
  if (column instanceof Int32Array) return column.length;
  // an older build's typed array over HTTP is {$typed, base64}: 4 bytes an Int32
  return typeof column?.base64 === 'string' ? Buffer.from(column.base64, 'base64').length / 4 : NaN;
}
