import type { ComponentType } from 'react';
import type { ShownOrder } from '../host/shown-order';
import type { FileSummary } from '../../src-main/core/api/trace-api';

/** What a tab view of one file's page is given; data it needs beyond this comes from hooks. */
export interface FileViewProps {
  file: FileSummary;
  /** the toolbar's sort and filter applied: the rows in display order */
  order: ShownOrder | null;
}

/** Data a page warms once it is idle, for the views that read it first (host/data-hooks). */
export type PrefetchedData = 'perf-digest' | 'group-page';

interface ViewBase {
  id: string;
  label: string;
  /** the tab's tooltip */
  title?: string;
  /** whether the view can show this file (asked of the file's capabilities, never its format) */
  available(file: FileSummary): boolean;
  /** what the page asks for before this view's tab is opened, when the view is available */
  prefetch?: readonly PrefetchedData[];
  /** it asks what only a live service answers (SQL): a shared report does not offer it */
  needsService?: true;
}

/** A tab of one open file's page (timeline, perf). */
export interface TabViewDefinition extends ViewBase {
  placement: 'tab';
  component: ComponentType<FileViewProps>;
}

/**
 * A view that takes the whole workspace when its store says so (two files compared, a run's
 * trends); it is given the active file, if any.
 */
export interface WorkspaceViewDefinition extends ViewBase {
  placement: 'workspace';
  component: ComponentType<{ file: FileSummary | null }>;
  /**
   * A hook: whether this view takes the workspace now (its store says so), given the active
   * file. The first registered workspace view that is shown wins; none, the file's page.
   */
  useShown(file: FileSummary | null): boolean;
}

export type ViewDefinition = TabViewDefinition | WorkspaceViewDefinition;
