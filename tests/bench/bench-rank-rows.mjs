// A GPU rank's row in the app (issue 45): a rank of a million items is sent for the window the
// timeline draws, not whole (src-main/core/store/row-detail.ts). Serve mode on one Kineto trace;
// getRows of its rank row for the whole trace, a hundredth of it and a ten-thousandth, at 1200
// pixels, as the renderer asks: each answer's time (median of 5) and size, beside the goal (an
// answer within 0.5 s) and JSON.parse of the same file's bytes in the same run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call, servingOn } from './serve-call.mjs';

const PORT = 4797;
const TURNS = 5;

export async function benchRankRows(path, jsonParseSec) {
  const server = spawn(process.execPath, [process.env.BENCH_CLI ?? join(fileURLToPath(new URL('../..', import.meta.url)), 'out/main/cli.js'), 'serve', '--port', String(PORT), '--token', 'bench', path], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    await servingOn(server, PORT);
    // the app's own signal: the file is listed with its open timings once it is open
    let file = null;
    while (!file) {
      const files = (await call(PORT, 'listFiles', [])).json?.result ?? [];
      file = files.find((f) => f.openTimings) ?? null;
      if (!file) await new Promise((r) => setTimeout(r, 250));
    }
    const span = file.globalEndSec - file.globalStartSec;
    const lines = [];
    for (const [label, share, at] of [
      ['the whole trace', 1, 0],
      ['a hundredth', 1 / 100, 0.5],
      ['a ten-thousandth', 1 / 10_000, 0.33],
    ]) {
      const window = { startSec: span * at, endSec: span * (at + share), pixels: 1200 };
      const times = [];
      let answer = null;
      for (let k = 0; k < TURNS; k++) {
        const t = performance.now();
        answer = await call(PORT, 'getRows', [file.fileId, [0], window]);
        times.push((performance.now() - t) / 1000);
      }
      times.sort((a, b) => a - b);
      const row = answer.json.result[0];
      const median = times[Math.floor(TURNS / 2)];
      lines.push(
        `  ${label}: ${median.toFixed(3)} s (goal 0.5 s: ${median <= 0.5 ? 'ok' : 'MISSED'}; ${jsonParseSec ? `${(median / jsonParseSec).toFixed(3)}x JSON.parse of the file` : 'JSON.parse: none'}), ` +
          `${row.items.length} of ${row.detail?.itemCount ?? row.items.length} items sent, ${(answer.bytes / 1e6).toFixed(2)} MB`,
      );
    }
    console.log(`the rank's row as the timeline asks it (getRows with a window, 1200 px, median of ${TURNS}):\n${lines.join('\n')}`);
  } finally {
    server.kill();
  }
}
