import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLayers, importsOf, repositorySources } from '../../../scripts/check-layers.mjs';

// Each layer rule of docs/ARCHITECTURE.md, broken on purpose in sources made here: the checker
// must report it, and must not report the same file with the import that is allowed.

const ROOT = resolve(__dirname, '../../..');

/** The problems of one file `path` holding `text` (beside the files it names, when given). */
function problems(path: string, text: string, others: Record<string, string> = {}): string[] {
  return checkLayers([
    { path, text },
    ...Object.entries(others).map(([p, t]) => ({ path: p, text: t })),
  ]);
}

const broken = (path: string, text: string, others?: Record<string, string>) =>
  expect(problems(path, text, others), `${path}: ${text}`).not.toEqual([]);
const fine = (path: string, text: string, others?: Record<string, string>) =>
  expect(problems(path, text, others), `${path}: ${text}`).toEqual([]);

describe('the layer checker', () => {
  it('passes the repository as it is', () => {
    expect(checkLayers(repositorySources(ROOT))).toEqual([]);
  });

  it('reads every kind of import, and not imports named in comments', () => {
    const text = [
      "import a from './a';",
      "import type { B } from './b';",
      "import { type C, type D } from './c';",
      "import { type E, f } from './e';",
      "export { g } from './g';",
      "export type { H } from './h';",
      "import './side-effect.css';",
      "const i = await import('./i');",
      'import {',
      '  j,',
      "} from './j';",
      "// import k from './k';",
      "/* import l from './l'; */",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      { spec: './a', typeOnly: false, dynamic: false },
      { spec: './b', typeOnly: true, dynamic: false },
      { spec: './c', typeOnly: true, dynamic: false },
      { spec: './e', typeOnly: false, dynamic: false },
      { spec: './g', typeOnly: false, dynamic: false },
      { spec: './h', typeOnly: true, dynamic: false },
      { spec: './side-effect.css', typeOnly: false, dynamic: false },
      { spec: './j', typeOnly: false, dynamic: false },
      { spec: './i', typeOnly: false, dynamic: true },
    ]);
  });

  it('bans Electron, React and the DOM in core, also by dynamic import', () => {
    broken('src-main/core/rows/x.ts', "import { app } from 'electron';");
    broken('src-main/core/store/x.ts', "import React from 'react';");
    broken('src-main/core/open/x.ts', "const r = await import('react-dom/client');");
    broken('src-main/core/export/x.ts', "import { create } from 'zustand';");
    broken('src-main/core/model/x.ts', '/// <reference lib="dom" />\nexport const a = 1;');
    fine('src-main/core/export/x.ts', "import { gzipSync } from 'node:zlib';");
  });

  it('lets only the byte sources read the file system', () => {
    broken('src-main/core/formats/otlp/x.ts', "import { readdirSync } from 'node:fs';");
    broken('src-main/core/open/x.ts', "import { readFile } from 'fs/promises';");
    fine('src-main/core/bytes/file-source.ts', "import { openSync } from 'node:fs';");
    fine('src-main/ingest/x.ts', "import { statSync } from 'node:fs';");
  });

  it('keeps UI packages out of main and Node out of the renderer', () => {
    broken('src-main/ingest/x.ts', "import { useState } from 'react';");
    broken('src-renderer/x.ts', "import { readFileSync } from 'node:fs';");
    broken('src-renderer/x.ts', "import { ipcRenderer } from 'electron';");
    fine('src-renderer/x.ts', "import { useState } from 'react';");
  });

  it('keeps the order inside core: lower layers never import higher ones', () => {
    broken('src-main/core/rows/x.ts', "import { buildStore } from '../store/build-store';");
    // the leaks issue 15 found: store -> compare, formats and rows -> contract types
    broken('src-main/core/store/x.ts', "import { rewardValue } from '../compare/compare-traces';");
    broken('src-main/core/rows/x.ts', "import type { PerfView } from '../api/trace-api';");
    broken(
      'src-main/core/formats/otlp/x.ts',
      "import type { SkippedLines } from '../../api/trace-api';",
    );
    // model and bytes are peers; model's one exception is ByteSource's type (WithBytes)
    broken('src-main/core/model/x.ts', "import { bytesSource } from '../bytes/byte-source';");
    broken(
      'src-main/core/model/x.ts',
      "import type { FileByteSource } from '../bytes/file-source';",
    );
    fine('src-main/core/model/x.ts', "import type { ByteSource } from '../bytes/byte-source';");
    broken('src-main/core/formats/otlp/x.ts', "import { buildRows } from '../../rows/build-rows';");
    broken('src-main/core/open/x.ts', "import { compareTraces } from '../compare/compare-traces';");
    fine('src-main/core/store/x.ts', "import { rewardValue } from '../model/reward-value';");
    fine(
      'src-main/core/formats/slime/descriptor.ts',
      "import { buildRows } from '../../rows/build-rows';",
    );
    fine(
      'src-main/core/formats/slime/open/x.ts',
      "import { buildRow } from '../../../rows/build-rows';",
    );
    broken(
      'src-main/core/formats/slime/open/x.ts',
      "import { buildStore } from '../../../store/build-store';",
    );
    fine('src-main/core/open/x.ts', "import { FORMATS } from '../formats/registry';");
  });

  it('lets the layers that build the contract’s data import its types, and only its types', () => {
    fine('src-main/core/store/x.ts', "import type { RowView } from '../api/trace-api';");
    broken('src-main/core/store/x.ts', "import { TRACE_API_METHODS } from '../api/trace-api';");
    broken('src-main/core/store/x.ts', "import type { X } from '../api/typed-json';");
  });

  it('keeps formats apart, except the containers', () => {
    broken(
      'src-main/core/formats/otlp/x.ts',
      "import { readSlimeDump } from '../slime/read-slime-dump';",
    );
    broken(
      'src-main/core/formats/slime/x.ts',
      "import type { RangeRead } from '../otlp/read-otlp';",
    );
    fine(
      'src-main/core/formats/slime/x.ts',
      "import { readTorchZip } from '../torch/read-torch-archive';",
    );
    fine(
      'src-main/core/formats/otlp/descriptor.ts',
      "import { defineFormat } from '../format-descriptor';",
    );
  });

  it('keeps core out of the rest of src-main', () => {
    broken('src-main/core/open/x.ts', "import { ingest } from '../../ingest/open-sources';");
    broken('src-main/core/api/x.ts', "import { TraceService } from '../../api/trace-service';");
  });

  it('keeps ingest and serve away from the service, and ingest away from api', () => {
    broken('src-main/ingest/x.ts', "import { TraceService } from '../api/trace-service';");
    broken('src-main/serve/x.ts', "import type { TraceService } from '../api/trace-service';");
    // the leak issue 15 found
    broken('src-main/ingest/x.ts', "import { NotFoundError } from '../api/call-errors';");
    fine('src-main/ingest/x.ts', "import { NotFoundError } from '../core/api/call-errors';");
    fine('src-main/serve/x.ts', "import { dispatchCall } from '../api/dispatch-call';");
  });

  it('lets the preload expose the contract and its channels only', () => {
    broken('src-main/preload/x.ts', "import { TraceService } from '../api/trace-service';");
    broken('src-main/preload/x.ts', "import { routeTraceApi } from '../ipc/trace-router';");
    fine('src-main/preload/x.ts', "import { TRACE_CALL_CHANNEL } from '../ipc/ipc-channels';");
  });

  it('lets the renderer import only types from core/api and core/model, and no one import it', () => {
    broken('src-renderer/x.ts', "import { ingest } from '../src-main/ingest/open-sources';");
    broken(
      'src-renderer/x.ts',
      "import type { TraceStore } from '../src-main/core/store/build-store';",
    );
    broken('src-renderer/x.ts', "import { compareItems } from '../src-main/core/model/row';");
    broken('src-renderer/x.ts', "const m = await import('../src-main/core/formats/registry');");
    fine('src-renderer/x.ts', "import type { Row } from '../src-main/core/model/row';");
    fine('src-renderer/x.ts', "import { SORT_KEYS } from '../src-main/core/api/sort-keys';");
    broken('src-main/cli/x.ts', "import { Toolbar } from '../../src-renderer/toolbar/Toolbar';");
  });

  it('lets the listed CLI file draw with the timeline’s pure modules, and those stay pure', () => {
    const PNG = 'src-main/cli/timeline-png.ts';
    fine(PNG, "import { drawTimeline } from '../../src-renderer/timeline/draw-timeline';");
    broken(PNG, "import { Timeline } from '../../src-renderer/timeline/Timeline';");
    broken(PNG, "import { readTheme } from '../../src-renderer/timeline/use-canvas-drawing';");
    broken(
      'src-main/cli/other.ts',
      "import { drawTimeline } from '../../src-renderer/timeline/draw-timeline';",
    );
    const SHARED = 'src-renderer/timeline/timeline-picture.ts';
    fine(SHARED, "import { drawTimeline } from './draw-timeline';");
    fine(SHARED, "import type { RowView } from '../../src-main/core/api/trace-api';");
    broken(SHARED, "import { useViewStore } from '../state/view-store';");
    broken(SHARED, "import { readTheme } from './use-canvas-drawing';");
    broken(SHARED, "import { useState } from 'react';");
  });

  it('keeps the renderer’s folders in their order: lower never imports higher', () => {
    // the imports issue 43 found, each against the order
    broken(
      'src-renderer/state/open-files.ts',
      "import type { TraceHost } from '../host/trace-host';",
    );
    broken(
      'src-renderer/state/open-files.ts',
      "import { openDroppedTogether } from '../run/open-run';",
    );
    broken(
      'src-renderer/host/data-hooks.ts',
      "import { isFilterActive } from '../toolbar/filter-state';",
    );
    broken(
      'src-renderer/run/RunOpeningItems.tsx',
      "import { OpeningItem } from '../frame/OpeningItem';",
    );
    // the same needs, met the way the order allows
    fine('src-renderer/host/data-hooks.ts', "import { useViewStore } from '../state/view-store';");
    fine('src-renderer/run/open-run.ts', "import { useFilesStore } from '../state/files-store';");
    fine('src-renderer/frame/TopBar.tsx', "import { RunTabs } from '../run/RunTabs';");
    fine(
      'src-renderer/run/RunOpeningItems.tsx',
      "import { OpeningItem } from '../widgets/OpeningItem';",
    );
    // peers of one rank do not import each other; the views' types sit below the registry
    broken('src-renderer/compare/x.ts', "import { TrendsView } from '../trends/TrendsView';");
    broken('src-renderer/toolbar/x.ts', "import { VIEWS } from '../views/registry';");
    fine(
      'src-renderer/toolbar/x.ts',
      "import type { TabViewDefinition } from '../views/view-types';",
    );
    broken('src-renderer/views/view-types.ts', "import type { X } from './registry';");
    // widgets draw what they are given: they import nothing of the app
    broken('src-renderer/widgets/x.tsx', "import { useFilesStore } from '../state/files-store';");
    // only the app's root imports it; dynamic imports count
    broken('src-renderer/page/x.tsx', "import { App } from '../App';");
    broken('src-renderer/timeline/x.ts', "const v = await import('../views/registry');");
    fine('src-renderer/main.tsx', "import { App } from './App';");
    // a folder the order does not name is reported, so that a new one gets its place
    broken('src-renderer/sql/SqlView.tsx', "import { useHost } from '../host/host-context';");
  });

  it('finds import cycles, type-only ones too', () => {
    // the loop issue 15 found in ingest/: protocol <-> file-calls, by types alone
    const protocol = "import type { FileCallName } from './file-calls';";
    const calls = "import type { IngestSource } from './ingest-protocol';";
    broken('src-main/ingest/ingest-protocol.ts', protocol, {
      'src-main/ingest/file-calls.ts': calls,
    });
    fine('src-main/ingest/ingest-protocol.ts', '', { 'src-main/ingest/file-calls.ts': calls });
  });
});
