// The layer rules of docs/ARCHITECTURE.md as a table (in the manner of Perfetto's
// tools/check_imports), checked on every `npm run lint`. Every import counts: `import`,
// `import type`, `export ... from`, side-effect imports and dynamic `import('...')`.
// tests/unit/layers/check-layers.test.ts breaks each rule on purpose and expects it reported.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layers inside src-main/core, lowest first: a file imports only its own layer and lower
 * ranks (peers of one rank do not import each other). The first matching entry wins.
 */
export const CORE_LAYERS = [
  { layer: 'model', rank: 0, match: /^src-main\/core\/model\// },
  { layer: 'bytes', rank: 0, match: /^src-main\/core\/bytes\// },
  // a descriptor composes its format's readers with the shared row steps: above rows (a
  // format's open/ folder holds the steps of its open that its descriptor grew too long for)
  {
    layer: 'descriptors',
    rank: 3,
    match:
      /^src-main\/core\/formats\/([^/]+\/descriptor|[^/]+\/open\/[^/]+|registry|format-descriptor)\.ts$/,
  },
  { layer: 'formats', rank: 1, match: /^src-main\/core\/formats\// },
  { layer: 'rows', rank: 2, match: /^src-main\/core\/rows\// },
  { layer: 'store', rank: 4, match: /^src-main\/core\/store\// },
  { layer: 'open', rank: 5, match: /^src-main\/core\/open\// },
  { layer: 'compare', rank: 6, match: /^src-main\/core\/compare\// },
  { layer: 'export', rank: 6, match: /^src-main\/core\/export\// },
  { layer: 'run', rank: 7, match: /^src-main\/core\/run\// },
  // tables for SQL, made from a file's store and its run joins
  { layer: 'sql', rank: 8, match: /^src-main\/core\/sql\// },
  { layer: 'api', rank: 9, match: /^src-main\/core\/api\// },
  { layer: 'report', rank: 10, match: /^src-main\/core\/report\// },
];

/**
 * The renderer's folders, lowest first, as CORE_LAYERS: a file imports only its own folder and
 * lower ranks (peers of one rank do not import each other). The first matching entry wins; a
 * file directly in src-renderer (App.tsx, main.tsx) is the top.
 */
export const RENDERER_LAYERS = [
  // no import of the app: formatting, the theme, components that draw what they are given
  { layer: 'units', rank: 0, match: /^src-renderer\/units\// },
  { layer: 'theme', rank: 0, match: /^src-renderer\/theme\// },
  { layer: 'widgets', rank: 0, match: /^src-renderer\/widgets\// },
  // zustand slices: what is open, what is shown; no host
  { layer: 'state', rank: 1, match: /^src-renderer\/state\// },
  // the TraceApi clients, the host in React context, data hooks over it (reading state)
  { layer: 'host', rank: 2, match: /^src-renderer\/host\// },
  // pictures of a view: the Picture menu, PNG and SVG making, clipboard and download
  { layer: 'picture', rank: 2.5, match: /^src-renderer\/picture\// },
  // what a view is given (the registry's types): below the views and the toolbar
  { layer: 'view-types', rank: 3, match: /^src-renderer\/views\/view-types\.ts$/ },
  // the Query panel (SQL editor, result table): a view of its own, and part of the run's and
  // compare's workspaces
  { layer: 'query', rank: 3.5, match: /^src-renderer\/query\// },
  // the timeline: one drawing path for a file's rows and a run's lane groups
  { layer: 'timeline', rank: 3.8, match: /^src-renderer\/timeline\// },
  // the details panel: a sample's or a span's, in a file's page and in a run's tab
  { layer: 'details', rank: 3.9, match: /^src-renderer\/details\// },
  // a run's store, its opening and its view (on the timeline's lane groups)
  { layer: 'run', rank: 4, match: /^src-renderer\/run\// },
  // opening files a user picks or drops (a run when main says they are one)
  { layer: 'opening', rank: 5, match: /^src-renderer\/opening\// },
  { layer: 'toolbar', rank: 7, match: /^src-renderer\/toolbar\// },
  { layer: 'perf', rank: 8, match: /^src-renderer\/perf\// },
  { layer: 'compare', rank: 9, match: /^src-renderer\/compare\// },
  { layer: 'groups', rank: 9, match: /^src-renderer\/groups\// },
  { layer: 'trends', rank: 9, match: /^src-renderer\/trends\// },
  { layer: 'gpu-profile', rank: 9, match: /^src-renderer\/gpu-profile\// },
  // the registry: every view by id; the page and the frame ask it
  { layer: 'views', rank: 10, match: /^src-renderer\/views\// },
  { layer: 'page', rank: 11, match: /^src-renderer\/page\// },
  { layer: 'frame', rank: 11, match: /^src-renderer\/frame\// },
  { layer: 'app', rank: 12, match: /^src-renderer\/[^/]+$/ },
  { layer: 'report', rank: 13, match: /^src-renderer\/report\// },
];

/** Imports across the core order that are allowed anyway, each with its reason. */
export const CORE_EXCEPTIONS = [
  {
    from: ['model'],
    to: /^src-main\/core\/bytes\/byte-source$/,
    typeOnly: true,
    reason:
      "TraceSamples.read is handed the file's bytes to read a sample again (WithBytes): the " +
      'ByteSource interface, never its code',
  },
  {
    from: ['store', 'open', 'compare', 'export', 'run'],
    to: /^src-main\/core\/api\/(trace-api|sort-keys)$/,
    typeOnly: true,
    reason:
      'they build the data the contract defines (FileSummary, RowView, RowOrder, CompareResult): ' +
      'its types, never its code',
  },
];

/** Format folders that other formats may use: containers, not formats of their own. */
export const FORMAT_CONTAINERS = {
  zip: 'ZIP archives (torch files are ZIPs)',
  pickle: "Python pickles (torch's data.pkl)",
  torch: "torch.save files (slime's dumps)",
  'json-lines': 'JSON lines: line splitting on bytes, skipped-line counts, the first-line sniff',
};

/** Packages a part of the tree must not import; `allow` lists files excepted, with the reason. */
export const PACKAGE_BANS = [
  {
    where: /^src-main\/core\//,
    packages: /^(electron|react|react-dom|zustand|@visx\/.*)(\/.*)?$/,
    why: 'core is pure TypeScript: it runs in the worker, the CLI and tests (no Electron, React)',
  },
  {
    where: /^src-main\/core\//,
    packages: /^(node:)?fs(\/promises)?$/,
    allow: {
      'src-main/core/bytes/file-source.ts': 'the byte source over a file on disk',
      'src-main/core/bytes/folder-listing.ts': 'what source grouping (rotated sets) lists',
    },
    why: 'the file system is read only by the byte sources (core/bytes)',
  },
  {
    where: /^src-main\//,
    packages: /^(react|react-dom|zustand|@visx\/.*)(\/.*)?$/,
    why: 'main, the worker and the CLI have no UI',
  },
  {
    where: /^src-renderer\//,
    packages: /^(electron|node:.*)$/,
    why: 'the renderer runs sandboxed in a browser page: it reaches main only through TraceApi',
  },
];

/** Rules for src-main outside core: who may import whom. */
export const MAIN_RULES = [
  {
    from: /^src-main\/core\//,
    to: /^src-main\/(?!core\/)/,
    why: 'core imports only core',
  },
  {
    from: /^src-main\/(ingest|serve)\//,
    to: /^src-main\/api\/trace-service$/,
    except: {
      'src-main/serve/run-serve.ts':
        "serve mode's entry: it builds the service and hands it to the transport, as main.ts does",
    },
    why: 'ingest and serve never import the service: the service uses ingest, serve is given it',
  },
  {
    from: /^src-main\/ingest\//,
    to: /^src-main\/(api|ipc|serve|cli|desktop|preload)\/|^src-main\/(main|window|cli)$/,
    why: 'the worker side knows only core and ingest',
  },
  {
    from: /^src-main\/preload\//,
    to: /^src-main\/(?!core\/api\/|ipc\/ipc-channels$)/,
    why: 'the preload exposes the TraceApi methods and nothing else',
  },
  {
    from: /^(?!src-renderer\/)/,
    to: /^src-renderer\//,
    why: 'nothing imports the renderer',
  },
];

/**
 * The renderer's pure drawing: the timeline drawn on a 2D context (no React, no DOM types: they
 * type-check under tsconfig.node.json, which has no DOM library), so a picture made headless is
 * the app's own drawing. The listed importers may use them across "nothing imports the
 * renderer"; they import only each other and core's contract types, never a package. Kept in the
 * timeline folder rather than moved under src-main: they are the timeline's (its hit test,
 * tooltip and axis share them) and the CLI is their only other user.
 */
export const SHARED_DRAWING = {
  modules:
    /^src-renderer\/(timeline\/(draw-timeline|draw-context|draw-rows|span-colours|pd-segments|cluster-markers|time-window|time-format|timeline-clock|row-layout|row-label-text|idle-gaps|legend-entries|timeline-picture|lane-group|lane-rows|lane-names|row-items)|run\/(run-picture|run-lanes|run-model|run-gpu|run-bands|draw-run-bands)|units\/tab-names)$/,
  importers: {
    'src-main/cli/timeline-png.ts':
      "the headless timeline PNG (report --png): the app's drawing in a skia canvas",
    'src-main/cli/run-timeline-png.ts':
      "a run folder's headless PNG (report RUN --png): the run tab's lanes, drawn as the app draws them",
  },
};

/** What the renderer may import from src-main: types from these, values from VALUE_MODULES. */
export const RENDERER_TYPES_FROM = /^src-main\/core\/(api|model)\//;
export const RENDERER_VALUE_MODULES = {
  'src-main/core/api/trace-api': 'the API method and export format lists (data)',
  'src-main/core/api/typed-json': "the HTTP transport's typed-array JSON codec",
  'src-main/core/api/json-list': "a shared report's rows and details, parsed one at a time",
  'src-main/core/api/sort-keys': 'the sort keys and their labels (data)',
  'src-main/core/api/report-snapshot':
    "a shared report's snapshot: its version and the keys its answers are found by (data)",
  'src-main/core/model/pd-phases': 'the PD phase order and colours (data)',
  'src-main/core/model/group-wall-ratio':
    "a group's wall time over its median sample: the groups view's column and its sort",
  'src-main/core/model/sql-schema':
    "the SQL tables and columns: the Query view's completion (data)",
  'src-main/core/model/straggler-sentence':
    "the straggler sentence, one wording for the CLI and the perf view (a trace's rows: 'rows')",
  'src-main/core/model/sorted-search':
    'the last of a sorted list at or before a value: the visible rows, a running count at a time',
  'src-main/core/model/json-text':
    "values as JSON with a dump's ints beyond 2^53 exact (JSON.stringify throws on them)",
  'src-main/core/model/group-extra-figures':
    "a group's train and server figures over its samples: the groups view's columns in a run",
  'src-main/core/model/rollout-extra-stats':
    "a rollout's run figures under compare's keys, with their units: the trends view's metrics",
  'src-main/core/model/run-file-index':
    "which of a run's files a file is (by id, or its path): the groups view's run figures",
  'src-main/core/model/reward-value':
    "a reward as one number: a shared report's reward filter, as the store ranges it",
  'src-main/core/model/span-name-pattern':
    "the span-name filter's `*` patterns: a shared report filters its rows as the store does",
  'src-main/core/model/count-of':
    'a count with its noun ("1 file", "2 files"), worded as main words it',
  'src-main/core/model/span-name-pattern':
    "a span name with its ids folded to '*': the span-name menu's entries are the perf view's lines",
};

/** Import cycles allowed anyway, each with its reason (none today). */
export const CYCLE_EXCEPTIONS = {};

const IMPORT_RE =
  /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"\n]+)['"]/g;
const DYNAMIC_RE = /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** Comments out, so that an import named in prose is not one. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/^\s*\/\/.*$/gm, '');
}

/** The imports of one file: specifier, whether only types come in, whether dynamic. */
export function importsOf(text) {
  const code = stripComments(text);
  const out = [];
  for (const m of code.matchAll(IMPORT_RE)) {
    const [, keyword, typeKeyword, clause, spec] = m;
    if (keyword === 'export' && clause === undefined) continue;
    // `import { type A, type B } from` brings types only, as `import type` does
    const namedTypesOnly =
      clause !== undefined &&
      /^\{[\s\S]*\}$/.test(clause.trim()) &&
      clause
        .replace(/[{}]/g, '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .every((s) => s.startsWith('type '));
    out.push({ spec, typeOnly: Boolean(typeKeyword) || namedTypesOnly, dynamic: false });
  }
  for (const m of code.matchAll(DYNAMIC_RE))
    out.push({ spec: m[1], typeOnly: false, dynamic: true });
  return out;
}

/** A relative specifier as a repository path without extension (query suffixes dropped). */
function resolveSpec(from, spec) {
  const parts = dirname(from).split('/');
  for (const piece of spec.replace(/\?.*$/, '').split('/')) {
    if (piece === '.' || piece === '') continue;
    if (piece === '..') parts.pop();
    else parts.push(piece);
  }
  return parts.join('/').replace(/\.(ts|tsx|js|mjs)$/, '');
}

const coreLayerOf = (path) => CORE_LAYERS.find((l) => l.match.test(path));
// a specifier resolves without its extension: match the renderer's layers on a .ts name
const rendererLayerOf = (path) =>
  RENDERER_LAYERS.find((l) => l.match.test(/\.(ts|tsx)$/.test(path) ? path : `${path}.ts`));
const formatFolderOf = (path) => path.match(/^src-main\/core\/formats\/([^/]+)\//)?.[1];

/**
 * Every broken rule in `files` ({path: repository-relative with extension, text}), as
 * "path: what" lines. Pure: the test feeds it sources that break each rule.
 */
export function checkLayers(files) {
  const problems = [];
  const paths = new Set(files.map((f) => f.path));
  const graph = new Map();
  for (const { path, text } of files) {
    const edges = [];
    graph.set(path, edges);
    for (const imp of importsOf(text)) {
      const how = imp.dynamic
        ? 'dynamically imports'
        : imp.typeOnly
          ? 'imports types from'
          : 'imports';
      if (!imp.spec.startsWith('.')) {
        if (SHARED_DRAWING.modules.test(path.replace(/\.tsx?$/, '')))
          problems.push(`${path}: ${how} ${imp.spec} (a shared drawing module imports no package)`);
        for (const ban of PACKAGE_BANS) {
          if (!ban.where.test(path) || !ban.packages.test(imp.spec)) continue;
          if (ban.allow?.[path]) continue;
          problems.push(`${path}: ${how} ${imp.spec} (${ban.why})`);
        }
        continue;
      }
      const target = resolveSpec(path, imp.spec);
      const file = ['.ts', '.tsx', '/index.ts']
        .map((ext) => target + ext)
        .find((p) => paths.has(p));
      if (file) edges.push(file);
      problems.push(...checkEdge(path, target, imp, how));
    }
    if (/^src-main\/core\//.test(path) && /\/\/\/\s*<reference\s+lib=["']dom["']/.test(text)) {
      problems.push(`${path}: references the DOM library (core runs where there is no DOM)`);
    }
  }
  problems.push(...cycles(graph));
  return problems;
}

function checkEdge(path, target, imp, how) {
  const problems = [];
  const say = (why) => problems.push(`${path}: ${how} ${target} (${why})`);
  const sharedDrawing =
    SHARED_DRAWING.importers[path] !== undefined && SHARED_DRAWING.modules.test(target);
  for (const rule of MAIN_RULES) {
    if (rule.from.test(path) && rule.to.test(target) && !rule.except?.[path] && !sharedDrawing)
      say(rule.why);
  }
  if (
    SHARED_DRAWING.modules.test(path.replace(/\.tsx?$/, '')) &&
    target.startsWith('src-renderer/') &&
    !SHARED_DRAWING.modules.test(target)
  )
    say('a shared drawing module imports only other shared drawing modules (SHARED_DRAWING)');
  if (path.startsWith('src-renderer/') && target.startsWith('src-main/')) {
    if (!RENDERER_TYPES_FROM.test(target)) say('the renderer imports only core/api and core/model');
    else if (!imp.typeOnly && !RENDERER_VALUE_MODULES[target])
      say('the renderer imports only types from core (values: RENDERER_VALUE_MODULES)');
  }
  const from = coreLayerOf(path);
  const to = coreLayerOf(target);
  if (from && to && from.layer !== to.layer && to.rank >= from.rank) {
    const excepted = CORE_EXCEPTIONS.some(
      (e) => e.from.includes(from.layer) && e.to.test(target) && (!e.typeOnly || imp.typeOnly),
    );
    if (!excepted)
      say(`core layer ${from.layer} may not import ${to.layer}: ${order(CORE_LAYERS)}`);
  }
  if (path.startsWith('src-renderer/') && target.startsWith('src-renderer/')) {
    const r = rendererLayerOf(path);
    const t = rendererLayerOf(target);
    if (!r) say(`a renderer folder not in RENDERER_LAYERS: give it its place`);
    else if (t && r.layer !== t.layer && t.rank >= r.rank)
      say(`renderer layer ${r.layer} may not import ${t.layer}: ${order(RENDERER_LAYERS)}`);
  }
  const a = formatFolderOf(path);
  const b = formatFolderOf(target);
  if (a && b && a !== b && !FORMAT_CONTAINERS[b]) {
    say(
      `format ${a} may not import format ${b}; only the containers ${Object.keys(FORMAT_CONTAINERS).join(', ')}`,
    );
  }
  return problems;
}

function order(layers) {
  const ranks = [...new Set(layers.map((l) => l.rank))].sort((x, y) => x - y);
  return ranks
    .map((r) =>
      layers
        .filter((l) => l.rank === r)
        .map((l) => l.layer)
        .join(', '),
    )
    .join(' < ');
}

/** Import cycles (type-only imports included), as strongly connected components (Tarjan). */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const visit = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return found
    .filter((component) => !CYCLE_EXCEPTIONS[component.join(' ')])
    .map((component) => `${component[0]}: import cycle: ${component.join(' <-> ')}`);
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

/** The repository's sources, as checkLayers takes them. */
export function repositorySources(root) {
  return [...walk(join(root, 'src-main')), ...walk(join(root, 'src-renderer'))].map((file) => ({
    path: relative(root, file).split(sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLayers(repositorySources(root));
  if (problems.length > 0) {
    console.error(`Layer rules broken:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('layers ok');
}
