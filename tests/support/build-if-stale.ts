import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

// vitest global set-up: the CLI tests (and trends') run the built CLI, so build it when it is
// missing or older than any source it is built from. Without this, `npx vitest run` on a fresh
// checkout skipped them, and on an old out/ tested stale code (issue 22).
const ROOT = resolve(__dirname, '../..');
export const BUILT_CLI = resolve(ROOT, 'out/main/cli.js');
const INPUTS = [
  'src-main',
  'src-renderer',
  'electron.vite.config.ts',
  'vite.report.config.mts',
  'package.json',
];

function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path))
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  return newest;
}

/** Why the built CLI cannot be trusted, or null when it is newer than all its inputs. */
export function staleReason(): string | null {
  if (!existsSync(BUILT_CLI)) return `${BUILT_CLI} does not exist`;
  const built = statSync(BUILT_CLI).mtimeMs;
  const newer = INPUTS.find((input) => newestMtimeMs(resolve(ROOT, input)) > built);
  return newer === undefined ? null : `${newer} changed after ${BUILT_CLI} was built`;
}

export default function setup(): void {
  const reason = staleReason();
  if (reason === null) return;
  process.stderr.write(`building the CLI for its tests: ${reason}\n`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0)
    throw new Error(
      `npm run build failed, so the CLI tests cannot run:\n${build.stdout}\n${build.stderr}`,
    );
  const still = staleReason();
  if (still !== null) throw new Error(`after npm run build the CLI is still stale: ${still}`);
}
