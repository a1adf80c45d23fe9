import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servesUi } from '../../../src-main/cli/command-word';
import { FIXTURES } from '../../support/fixtures';
// the bench's writer: dumps shaped like slime's
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';

// Serve mode named with a file starts the file's worker before it loads its own commands
// (cli.ts, ingest-client.ts: prestartIngestWorker), and the file takes that worker. The built
// CLI's steps (TRACE_EXPLORER_MARKS=1, src-main/ingest/start-marks.ts) tell how many ingest
// workers loaded their code: one, when the file took the one started ahead.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
let dir: string;
let dump: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spare-worker-'));
  dump = join(dir, 'rollout_3.pt');
  // past the 8 MiB from which a file gets a worker of its own (ingest-pool.ts)
  writeSlimeDump(dump, 10 * 1024 * 1024, 200);
  expect(statSync(dump).size).toBeGreaterThan(8 * 1024 * 1024);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The files serve mode lists, as the page asks (a plain JSON answer). */
async function listFiles(
  port: number,
): Promise<{ samples: number; rows: number; streaming?: boolean }[]> {
  const answer = await fetch(`http://127.0.0.1:${port}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace-token': 'bench' },
    body: JSON.stringify({ method: 'listFiles', args: [] }),
  });
  return ((await answer.json()) as { result: { samples: number; rows: number }[] }).result;
}

const marksIn = (stderr: string) =>
  stderr
    .split('\n')
    .map((line) => /^MARK (\S+) [\d.]+$/.exec(line)?.[1])
    .filter((step): step is string => step !== undefined);

interface Served {
  port: number;
  /** the steps marked so far */
  marks(): string[];
  stop(): void;
}

/** Serve mode named with `file`, its steps marked, once it says where it serves. */
async function serve(file: string): Promise<Served> {
  const server = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--token', 'bench', file], {
    env: { ...process.env, TRACE_EXPLORER_MARKS: '1' },
  });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const served = /serving on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
      if (served) done(Number(served[1]));
    });
    server.once('exit', (code) => fail(new Error(`serve mode exited (${code}): ${stderr}`)));
  });
  return { port, marks: () => marksIn(stderr), stop: () => server.kill() };
}

/** The file as the page asks for it, once wholly read. */
async function wholeFile(port: number): Promise<{ samples: number; rows: number } | null> {
  let file: { samples: number; rows: number; streaming?: boolean } | null = null;
  for (let tries = 0; tries < 600 && (file === null || file.streaming); tries++) {
    file = (await listFiles(port))[0] ?? null;
    if (file === null || file.streaming) await new Promise((r) => setTimeout(r, 100));
  }
  return file;
}

describe('the worker started ahead in serve mode', () => {
  it('opens the named file: one ingest worker loaded, the same samples as summary', async () => {
    const expected = JSON.parse(
      spawnSync(process.execPath, [CLI, 'summary', '--json', dump], { encoding: 'utf8' }).stdout,
    ) as { samples: number; rows: number };
    const server = await serve(dump);
    try {
      expect(await wholeFile(server.port)).toMatchObject({
        samples: expected.samples,
        rows: expected.rows,
      });
      const marks = server.marks();
      // a fresh worker for the file would have loaded beside the one started ahead: two
      expect(marks.filter((step) => step === 'worker-loaded')).toHaveLength(1);
      expect(marks).toContain('worker-asked-spare');
      expect(marks.some((step) => step.startsWith('preview-received-'))).toBe(true);
      expect(marks).not.toContain('spare-dropped');
    } finally {
      server.stop();
    }
  }, 120_000);

  it('is ended once a small file, read on a host thread, has opened without it', async () => {
    const server = await serve(resolve(FIXTURES, 'slime/rollout_small.pt'));
    try {
      expect((await wholeFile(server.port))?.samples).toBeGreaterThan(0);
      // the file's open is answered before its worker's end is marked: wait for the mark
      for (let tries = 0; tries < 600 && !server.marks().includes('spare-dropped'); tries++)
        await new Promise((r) => setTimeout(r, 100));
      expect(server.marks()).toContain('spare-dropped');
      expect(server.marks()).not.toContain('worker-asked-spare');
    } finally {
      server.stop();
    }
  }, 120_000);

  it('headless commands start none', () => {
    const summary = spawnSync(process.execPath, [CLI, 'summary', dump], {
      encoding: 'utf8',
      env: { ...process.env, TRACE_EXPLORER_MARKS: '1' },
    });
    expect(summary.status, summary.stderr).toBe(0);
    expect(marksIn(summary.stderr)).not.toContain('worker-loaded');
    expect(summary.stdout).toContain('samples');
  });
});

describe('which command lines serve the UI', () => {
  it('serve, or a path first; not another command, an option or help', () => {
    expect(servesUi(['serve', 'a.pt'])).toBe(true);
    expect(servesUi(['serve'])).toBe(true);
    expect(servesUi([__filename])).toBe(true);
    expect(servesUi(['summary', __filename])).toBe(false);
    expect(servesUi(['no-such-file.pt'])).toBe(false);
    expect(servesUi(['--version'])).toBe(false);
    expect(servesUi(['serve', '--help'])).toBe(false);
    expect(servesUi([])).toBe(false);
  });
});
