// `npm run mutate -- rows|compare|store|drawing`: StrykerJS over one folder (see stryker.config.mjs).
import { spawnSync } from 'node:child_process';

const folders = process.argv.slice(2);
if (folders.length === 0) folders.push('compare', 'rows', 'store', 'drawing');
for (const folder of folders) {
  const result = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    env: { ...process.env, STRYKER_FOLDER: folder },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
