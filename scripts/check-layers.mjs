// The layer rules of docs/ARCHITECTURE.md, checked on every `npm run lint`:
//   core/** imports only core/** (and node builtins);
//   formats/<a> does not import formats/<b> (torch may use zip and pickle; registry sees all);
//   src-renderer/** imports from src-main only types from core/api and core/model (values:
//   the API method list, the typed-array JSON codec of the HTTP transport, PD phase colours);
//   nothing imports the renderer.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FORMAT_EXCEPTIONS = { torch: ['zip', 'pickle'], slime: ['torch', 'zip', 'pickle'] };

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const problems = [];
for (const file of [...walk(join(root, 'src-main')), ...walk(join(root, 'src-renderer'))]) {
  const rel = relative(root, file).split(sep).join('/');
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
    const spec = match[3];
    const typeOnly = Boolean(match[2]);
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(dirname(file), spec)).split(sep).join('/');
    if (target.startsWith('src-renderer') && !rel.startsWith('src-renderer')) {
      problems.push(`${rel}: imports the renderer (${spec})`);
    }
    if (rel.startsWith('src-main/core/') && !target.startsWith('src-main/core')) {
      problems.push(`${rel}: core imports outside core (${spec})`);
    }
    const from = rel.match(/^src-main\/core\/formats\/([^/]+)\//)?.[1];
    const to = target.match(/^src-main\/core\/formats\/([^/]+)/)?.[1];
    if (from && to && from !== to && !(FORMAT_EXCEPTIONS[from] ?? []).includes(to)) {
      problems.push(`${rel}: format ${from} imports format ${to}`);
    }
    if (rel.startsWith('src-renderer/') && target.startsWith('src-main')) {
      const allowed = /^src-main\/core\/(api|model)\//.test(target);
      if (!allowed) problems.push(`${rel}: renderer imports main code (${spec})`);
      else if (!typeOnly && !/^src-main\/core\/api\/(trace-api|typed-json)$/.test(target) && !/^src-main\/core\/model\/pd-phases$/.test(target)) {
        problems.push(`${rel}: renderer imports values (not types) from ${spec}`);
      }
    }
  }
}
if (problems.length > 0) {
  console.error(`Layer rules broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('layers ok');
