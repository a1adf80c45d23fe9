import type { FileSummary } from '../../src-main/core/api/trace-api';
import { Timeline } from '../timeline/Timeline';
import { PerfView } from '../perf/PerfView';
import { QueryView } from '../query/QueryView';
import { CompareWorkspace, GroupsTab, RunWorkspace, TrendsWorkspace } from './workspace-views';
import type { TabViewDefinition, ViewDefinition, WorkspaceViewDefinition } from './view-types';

/**
 * Every view, registered once: the page shows the tab views a file makes available, and the
 * workspace shows compare or trends when their stores say so. A new view is one entry here and
 * its folder.
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
  },
  {
    id: 'groups',
    label: 'Groups',
    title: 'GRPO groups: one line per group, rewards, zero-variance groups, slowest samples',
    placement: 'tab',
    component: GroupsTab,
    available: (file) => file.capabilities.facets.groups,
  },
  {
    id: 'query',
    label: 'Query',
    title: 'SQL over this file’s samples, spans, events, PD phases, server requests, perf',
    placement: 'tab',
    component: QueryView,
    available: () => true,
  },
  {
    id: 'compare',
    label: 'Compare',
    placement: 'workspace',
    component: CompareWorkspace,
    available: () => true,
  },
  {
    id: 'trends',
    label: 'Trends',
    placement: 'workspace',
    component: TrendsWorkspace,
    available: () => true,
  },
  {
    id: 'run',
    label: 'Run',
    placement: 'workspace',
    component: RunWorkspace,
    available: () => true,
  },
] as const satisfies readonly ViewDefinition[];

export type WorkspaceViewId = Extract<(typeof VIEWS)[number], { placement: 'workspace' }>['id'];

export function workspaceView(id: WorkspaceViewId): WorkspaceViewDefinition {
  return VIEWS.find((v) => v.id === id) as WorkspaceViewDefinition;
}

/** The tab views a file's page offers, in registry order. */
export function tabViews(file: FileSummary): TabViewDefinition[] {
  const all: readonly ViewDefinition[] = VIEWS;
  return all.filter((v): v is TabViewDefinition => v.placement === 'tab' && v.available(file));
}
