import type { FileSummary } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { Timeline } from '../timeline/Timeline';
import { PerfView } from '../perf/PerfView';
import { QueryView } from '../query/QueryView';
import { GpuProfileView } from '../gpu-profile/GpuProfileView';
import {
  CompareWorkspace,
  GroupsTab,
  RunWorkspace,
  TrendsWorkspace,
  useCompareShown,
  useRunShown,
  useTrendsShown,
} from './workspace-views';
import type {
  PrefetchedData,
  TabViewDefinition,
  ViewDefinition,
  WorkspaceViewDefinition,
} from './view-types';

/**
 * Every view, registered once: the page shows the tab views a file makes available, and the
 * workspace shows a workspace view when its store says so (useShown; the first one shown, in
 * this order, wins). A new view is one entry here and its folder (and its place in
 * scripts/check-layers.mjs' RENDERER_LAYERS).
 */
export const VIEWS = [
  {
    id: 'timeline',
    label: 'Timeline',
    placement: 'tab',
    component: Timeline,
    available: () => true,
  },
  {
    id: 'perf',
    label: 'Perf',
    title: 'Perf summary: slime’s perf/… metrics, histograms, samples running over time',
    placement: 'tab',
    component: PerfView,
    available: () => true,
    prefetch: ['perf-digest'],
  },
  {
    id: 'gpu',
    label: 'GPU',
    title: 'GPU profile: HTA’s breakdown per rank, overlap, kernel types, top kernels, idle gaps',
    placement: 'tab',
    component: GpuProfileView,
    available: (file) => file.capabilities.gpuProfile === true,
  },
  {
    id: 'groups',
    label: 'Groups',
    title: 'GRPO groups: one line per group, rewards, zero-variance groups, slowest samples',
    placement: 'tab',
    component: GroupsTab,
    available: (file) => file.capabilities.facets.groups,
    prefetch: ['group-page'],
  },
  {
    id: 'query',
    label: 'Query',
    title: 'SQL over this file’s samples, spans, events, PD phases, server requests, perf',
    placement: 'tab',
    component: QueryView,
    available: () => true,
    needsService: true,
  },
  // workspace views in the order they win the workspace: a run tab, a trends tab, a comparison
  {
    id: 'run',
    label: 'Run',
    placement: 'workspace',
    component: RunWorkspace,
    available: () => true,
    useShown: useRunShown,
  },
  {
    id: 'trends',
    label: 'Trends',
    placement: 'workspace',
    component: TrendsWorkspace,
    available: () => true,
    useShown: useTrendsShown,
  },
  {
    id: 'compare',
    label: 'Compare',
    placement: 'workspace',
    component: CompareWorkspace,
    available: () => true,
    useShown: useCompareShown,
  },
] as const satisfies readonly ViewDefinition[];

/** The workspace views, in the order they win the workspace. */
const WORKSPACE_VIEWS = (VIEWS as readonly ViewDefinition[]).filter(
  (v): v is WorkspaceViewDefinition => v.placement === 'workspace',
);

/**
 * The workspace view that takes the workspace now, or null for the active file's page. A hook:
 * it calls every workspace view's useShown, always all of them in one order.
 */
export function useShownWorkspaceView(file: FileSummary | null): WorkspaceViewDefinition | null {
  const shown = WORKSPACE_VIEWS.map((view) => view.useShown(file));
  return WORKSPACE_VIEWS[shown.indexOf(true)] ?? null;
}

/** Whether any of `views` asks for `data` before its tab is opened. */
export function prefetches(views: readonly ViewDefinition[], data: PrefetchedData): boolean {
  return views.some((view) => view.prefetch?.includes(data) ?? false);
}

/** The tab views a file's page offers on this host, in registry order. */
export function tabViews(file: FileSummary, host: Pick<TraceHost, 'kind'>): TabViewDefinition[] {
  const all: readonly ViewDefinition[] = VIEWS;
  return all.filter(
    (v): v is TabViewDefinition =>
      v.placement === 'tab' &&
      v.available(file) &&
      // a shared report has no service behind it: a view that needs one is not offered
      !(v.needsService && host.kind === 'report'),
  );
}
