// Issue 46's figures: the SQL tables of the 100k-sample dump ready for the first query, a
// GROUP BY over its ~1.1M spans, the Query view's memory against the open file's, and
// `export --format parquet` of the 1 GB dump; each beside `summary --json` of the same file
// in the same run (the baseline).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './serve-call.mjs';

const ok = (value, goal) => (value <= goal ? 'ok' : 'MISSED');
/** resident memory of a process and all its threads (the file's and the SQL engine's workers) */
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

export async function benchSql(cli, dumpPath, bigDumpPath, measure) {
  const summary = measure(process.execPath, [cli, 'summary', '--json', dumpPath]);
  const port = 5400 + Math.floor(Math.random() * 200);
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--port', String(port), '--token', 'bench', dumpPath],
    {
      stdio: 'ignore',
    },
  );
  try {
    let file = null;
    for (;;) {
      const listed = await call(port, 'listFiles', []).catch(() => null);
      file = (listed?.json?.result ?? []).find((f) => !f.streaming && f.rows > 0) ?? null;
      if (file) break;
      if (child.exitCode !== null) throw new Error('serve mode exited before the file opened');
      await new Promise((r) => setTimeout(r, 100));
    }
    // the warm-up after opening (indexes, compare digest) ends; then the open file's memory
    await new Promise((r) => setTimeout(r, 10_000));
    const openMb = rssMb(child.pid);
    const sql = async (queryId, text) => {
      const started = performance.now();
      const { json } = await call(port, 'runSql', [{ queryId, fileIds: [file.fileId], sql: text }]);
      const ms = performance.now() - started;
      const answer = json.result;
      if (answer.error) throw new Error(`${text}: ${answer.error.message}`);
      return { ms, answer };
    };
    const first = await sql('first', 'SELECT count(*) FROM spans');
    const spans = first.answer.rows[0][0];
    const withTablesMb = rssMb(child.pid);
    console.log(
      `\n== SQL over ${file.rows} samples (${spans} spans): serve mode, file open and warm`,
    );
    const firstSec = first.ms / 1000;
    console.log(
      `tables ready, first query answered: ${firstSec.toFixed(2)} s (tables built in the file's worker and loaded: ${(first.answer.loadMs / 1000).toFixed(2)} s of it); ` +
        `baseline, summary of the whole file: ${summary.seconds.toFixed(2)} s; ${(firstSec / summary.seconds).toFixed(2)}x (goal 1x: ${ok(firstSec, summary.seconds)})`,
    );
    const groupBy =
      'SELECT name, count(*) AS n, sum(duration_sec) AS total_sec, median(duration_sec) AS median_sec FROM spans GROUP BY name ORDER BY total_sec DESC';
    const times = [];
    for (let k = 0; k < 5; k++) times.push(await sql(`group${k}`, groupBy));
    const engineMs = times.map((t) => t.answer.queryMs).sort((a, b) => a - b);
    const httpMs = times.map((t) => t.ms).sort((a, b) => a - b);
    console.log(
      `GROUP BY name over ${spans} spans (5 runs, median): ${engineMs[2].toFixed(0)} ms in the engine, ${httpMs[2].toFixed(0)} ms over HTTP (goal 200 ms: ${ok(httpMs[2], 200)}); first run ${httpMs[0].toFixed(0)}-${httpMs[4].toFixed(0)} ms range`,
    );
    const baselineQuery = performance.now();
    await call(port, 'getRowFacts', [file.fileId]);
    console.log(
      `  same-run baseline, getRowFacts over HTTP: ${(performance.now() - baselineQuery).toFixed(0)} ms`,
    );
    console.log(
      `Query view's memory: the process ${openMb.toFixed(0)} MB with the file open (its store, samples' facts, indexes), ` +
        `${withTablesMb.toFixed(0)} MB with its SQL tables loaded: +${(withTablesMb - openMb).toFixed(0)} MB = ${((withTablesMb - openMb) / openMb).toFixed(2)}x the open file's`,
    );
  } finally {
    child.kill();
  }
  const big = measure(process.execPath, [cli, 'summary', '--json', bigDumpPath]);
  const out = mkdtempSync(join(tmpdir(), 'bench-parquet-'));
  try {
    const exported = measure(process.execPath, [
      cli,
      'export',
      bigDumpPath,
      '--format',
      'parquet',
      '-o',
      out,
    ]);
    const ratio = exported.seconds / big.seconds;
    console.log(
      `export --format parquet of the ${(JSON.parse(big.stdout).bytes / 1e6).toFixed(0)} MB dump: ${exported.seconds.toFixed(1)} s, peak ${exported.peakMb.toFixed(0)} MB; ` +
        `baseline, summary: ${big.seconds.toFixed(1)} s, peak ${big.peakMb.toFixed(0)} MB; ${ratio.toFixed(2)}x the time (goal 1.5x: ${ok(ratio, 1.5)}), ${(exported.peakMb / big.peakMb).toFixed(2)}x the peak`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
