import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POOL_LIMITS } from '../../../src-main/ingest/ingest-pool';
import { serveCaller } from '../../support/serve-call';

/**
 * Issue 49, finding 2, through the built serve mode (real worker threads): a folder of many
 * tiny traces held open does not take a thread per file (471 threads for 20,000 files before).
 * `npm run bench folder` gives the figures at 20,000 files.
 */
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const base = mkdtempSync(join(tmpdir(), 'te-serve-folder-'));
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const server of servers) server.kill();
  rmSync(base, { recursive: true, force: true });
});

/** A folder of `count` one-slice Chrome traces, each slice named after its file. */
function tinyFolder(name: string, count: number): string {
  const dir = join(base, name);
  mkdirSync(dir);
  for (let i = 0; i < count; i++) {
    const events = [{ name: `s${i}`, ph: 'X', ts: 0, dur: 5, pid: 1, tid: 1 }];
    writeFileSync(
      join(dir, `t${String(i).padStart(4, '0')}.json`),
      JSON.stringify({ traceEvents: events }),
    );
  }
  return dir;
}

/** Serve mode on `dir`, once initialFiles answers (every file named at start is open). */
async function serveOpened(dir: string) {
  const server = spawn(process.execPath, [CLI, 'serve', '--port', '0', dir]);
  servers.push(server);
  const url = await new Promise<URL>((found, failed) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
      if (match) found(new URL(match[1]));
    });
    server.on('exit', (code) => failed(new Error(`serve exited with ${code}: ${out}`)));
  });
  const call = serveCaller(() => Number(url.port), url.searchParams.get('token')!);
  const initial = (await call('initialFiles', [])).body.result as {
    fileIds: string[];
    errors: unknown[];
  };
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const threads = Number(/^Threads:\s+(\d+)/m.exec(status)![1]);
  return { call, initial, threads };
}

describe('serve mode holding a folder of tiny traces (issue 49, finding 2)', () => {
  it.runIf(process.platform === 'linux')(
    '300 files open on a few threads, as many as for one file (give or take the pool)',
    async () => {
      const one = await serveOpened(tinyFolder('one', 1));
      const many = await serveOpened(tinyFolder('many', 300));
      expect(one.initial.fileIds).toHaveLength(1);
      expect(many.initial.errors).toEqual([]);
      expect(many.initial.fileIds).toHaveLength(300);
      // one thread per file made it 300 more; the pool adds at most its hosts
      expect(many.threads - one.threads).toBeLessThanOrEqual(POOL_LIMITS.hosts);
      // every file answers with its own rows
      const files = (await many.call('listFiles', [])).body.result as {
        fileId: string;
        name: string;
      }[];
      for (const file of [files[0], files[150], files[299]]) {
        const span = (await many.call('getSpan', [file.fileId, 0, 0])).body.result as {
          name: string;
        };
        expect(`t${span.name.slice(1).padStart(4, '0')}.json`).toBe(file.name);
      }
    },
  );
});
