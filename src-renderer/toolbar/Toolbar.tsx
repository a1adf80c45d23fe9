import { useEffect, useMemo, useRef, useState } from 'react';
import type { ShownOrder } from '../host/shown-order';
import type { FileSummary, SortKey } from '../../src-main/core/api/trace-api';
import { useCommand, useHost } from '../host/host-context';
import type { TabViewDefinition } from '../views/view-types';
import { spanNameChoices } from './span-name-patterns';
import { sortOptions } from './sort-options';
import { RowCount } from './RowCount';
import { RolloutWindowChip } from './RolloutWindowChip';
import { useViewStore } from '../state/view-store';
import { useFilesStore } from '../state/files-store';
import {
  activeConditionCount,
  isFilterActive,
  parseBound,
  toggleInList,
} from '../state/filter-state';
import './toolbar.css';

/** Chips shown for sources before the rest move to a "more" list. */
const SOURCE_CHIPS = 10;
const SEARCH_DEBOUNCE_MS = 150;

/**
 * Search, filters, sort, filter-or-highlight, and the counts of shown rows and of samples
 * without a trace; the Timeline / Perf switch for the active file.
 */
export function Toolbar({
  file,
  order = null,
  views,
}: {
  /** the tab views the page offers for this file */
  views: TabViewDefinition[];
  file: FileSummary;
  /** the current order, for the shown count; FileView passes what it queried */
  order?: ShownOrder | null;
}) {
  const host = useHost();
  const [spanSearch, setSpanSearch] = useState('');
  const spanChoices = useMemo(() => spanNameChoices(file.spanNames), [file.spanNames]);
  const shownSpanChoices = useMemo(() => {
    const words = spanSearch.trim().toLowerCase();
    const hits = words
      ? spanChoices.filter((c) => c.value.toLowerCase().includes(words))
      : spanChoices;
    return hits.slice(0, 200);
  }, [spanChoices, spanSearch]);
  const filter = useViewStore((s) => s.filter);
  const patchFilter = useViewStore((s) => s.patchFilter);
  const setFilter = useViewStore((s) => s.setFilter);
  const sort = useViewStore((s) => s.sort);
  const descending = useViewStore((s) => s.descending);
  const setSort = useViewStore((s) => s.setSort);
  const filterMode = useViewStore((s) => s.filterMode);
  const setFilterMode = useViewStore((s) => s.setFilterMode);
  const view = useViewStore((s) => s.view);
  const setView = useViewStore((s) => s.setView);
  const matching = useViewStore((s) => s.matchingRowIds);
  const pickedLabel = useViewStore((s) => s.pickedLabel);
  const setPickedLabel = useViewStore((s) => s.setPickedLabel);
  const [text, setText] = useState(filter.text ?? '');
  const [rewardText, setRewardText] = useState({
    min: filter.rewardMin === undefined ? '' : String(filter.rewardMin),
    max: filter.rewardMax === undefined ? '' : String(filter.rewardMax),
  });
  const typed = useRef(false);
  /** the text this box last put in the filter: its echo must not overwrite newer typing */
  const sent = useRef(filter.text);

  // The search box is debounced: a filter query per keystroke would be wasted on 100k rows.
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      sent.current = text.trim() || undefined;
      patchFilter({ text: sent.current });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, patchFilter]);

  // A filter changed elsewhere (Clear, compare, a new file) shows in the boxes.
  useEffect(() => {
    if (filter.text !== sent.current) {
      sent.current = filter.text;
      typed.current = false;
      setText(filter.text ?? '');
    }
    setRewardText((prev) => ({
      min: parseBound(prev.min) === filter.rewardMin ? prev.min : String(filter.rewardMin ?? ''),
      max: parseBound(prev.max) === filter.rewardMax ? prev.max : String(filter.rewardMax ?? ''),
    }));
    // only when the store’s filter changes: the text state is read, not tracked
  }, [filter]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
      if (event.key === '/' && !typing) {
        event.preventDefault();
        document.querySelector<HTMLInputElement>('[data-testid="search-box"]')?.focus();
      }
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  }, []);
  useCommand((command) => {
    const state = useViewStore.getState();
    if (command === 'toggle-perf') state.setView(state.view === 'perf' ? 'timeline' : 'perf');
    if (command === 'toggle-details') state.setDetailsOpen(!state.detailsOpen);
  });

  const active = isFilterActive(filter);
  const highlighting = filterMode === 'highlight' && active;
  const extraSources = file.sources.slice(SOURCE_CHIPS);

  return (
    <div className="toolbar" data-testid="toolbar">
      <div className="toolbar-line">
        <div className="view-switch" role="tablist" aria-label="View">
          {views.map((v) => (
            <button
              type="button"
              role="tab"
              key={v.id}
              aria-selected={view === v.id}
              className={`button small${view === v.id ? ' selected' : ''}`}
              onClick={() => setView(v.id)}
              data-testid={`view-${v.id}`}
              title={v.title}
            >
              {v.label}
            </button>
          ))}
        </div>
        <RolloutWindowChip file={file} />
        <input
          className="search-box"
          data-testid="search-box"
          type="search"
          placeholder={`Search ${file.formatLabels.search}  ( / )`}
          value={text}
          onChange={(event) => {
            typed.current = true;
            setText(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && text) {
              event.stopPropagation();
              typed.current = true;
              setText('');
            } else if (event.key === 'Enter') {
              sent.current = text.trim() || undefined;
              patchFilter({ text: sent.current });
            }
          }}
        />
        <label className="sort">
          Sort{' '}
          <select
            value={sort}
            onChange={(event) => setSort(event.target.value as SortKey, descending)}
            data-testid="sort-select"
          >
            {sortOptions(file.capabilities).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button small"
            onClick={() => setSort(sort, !descending)}
            title={
              descending ? 'Descending: click for ascending' : 'Ascending: click for descending'
            }
            aria-label={descending ? 'descending' : 'ascending'}
            data-testid="sort-direction"
            data-descending={descending}
          >
            {descending ? '↓' : '↑'}
          </button>
        </label>
        <RowCount file={file} order={order} highlighting={highlighting} matching={matching} />
      </div>
      <div className="toolbar-line filters">
        {file.statuses.length > 0 && (
          <ChipGroup label="status">
            {file.statuses.map((status) => (
              <Chip
                key={status}
                on={filter.statuses?.includes(status) ?? false}
                testId="status-chip"
                value={status}
                onClick={() => patchFilter({ statuses: toggleInList(filter.statuses, status) })}
              >
                {status}
              </Chip>
            ))}
          </ChipGroup>
        )}
        {file.sources.length > 1 && (
          <ChipGroup label={file.formatLabels.source}>
            {file.sources.slice(0, SOURCE_CHIPS).map((source) => (
              <Chip
                key={source}
                on={filter.sources?.includes(source) ?? false}
                testId="source-chip"
                value={source}
                onClick={() => patchFilter({ sources: toggleInList(filter.sources, source) })}
              >
                {source}
              </Chip>
            ))}
            {extraSources.length > 0 && (
              <select
                value=""
                onChange={(event) =>
                  patchFilter({ sources: toggleInList(filter.sources, event.target.value) })
                }
                data-testid="more-sources"
              >
                <option value="">+{extraSources.length} more…</option>
                {extraSources.map((source) => (
                  <option key={source} value={source}>
                    {filter.sources?.includes(source) ? '✓ ' : ''}
                    {source}
                  </option>
                ))}
              </select>
            )}
          </ChipGroup>
        )}
        {file.attempts.length > 1 && (
          <ChipGroup label="attempt">
            {file.attempts.map((attempt) => (
              <Chip
                key={attempt}
                on={filter.attempts?.includes(attempt) ?? false}
                testId="attempt-chip"
                value={String(attempt)}
                onClick={() => patchFilter({ attempts: toggleInList(filter.attempts, attempt) })}
              >
                {attempt}
              </Chip>
            ))}
          </ChipGroup>
        )}
        <span className="span-filter">
          <input
            type="search"
            className="span-filter-search"
            placeholder="span…"
            value={spanSearch}
            onChange={(event) => setSpanSearch(event.target.value)}
            data-testid="span-filter-search"
            title="Narrow the span-name menu"
          />
          <select
            value={filter.spanName ?? ''}
            onChange={(event) => patchFilter({ spanName: event.target.value || undefined })}
            data-testid="span-filter"
            title="Only rows that have a span or event of this name (ids shown as *)"
          >
            <option value="">any span</option>
            {shownSpanChoices.map(({ value, count, names }) => (
              <option key={value} value={value}>
                has {value} ({count}
                {names > 1 ? ` in ${names} names` : ''})
              </option>
            ))}
          </select>
        </span>
        {file.capabilities.facets.rewards && (
          <label className="reward-range" title="Dict rewards are ranged by their score">
            reward
            <input
              type="number"
              step="any"
              placeholder="min"
              value={rewardText.min}
              data-testid="reward-min"
              onChange={(e) => {
                setRewardText((prev) => ({ ...prev, min: e.target.value }));
                patchFilter({ rewardMin: parseBound(e.target.value) });
              }}
            />
            –
            <input
              type="number"
              step="any"
              placeholder="max"
              value={rewardText.max}
              data-testid="reward-max"
              onChange={(e) => {
                setRewardText((prev) => ({ ...prev, max: e.target.value }));
                patchFilter({ rewardMax: parseBound(e.target.value) });
              }}
            />
          </label>
        )}
        <div
          className="mode-switch"
          role="radiogroup"
          aria-label="Filter or highlight"
          title="Filter hides rows that do not match; highlight keeps every row and marks the matching ones"
        >
          {(['filter', 'highlight'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              role="radio"
              aria-checked={filterMode === mode}
              className={`chip${filterMode === mode ? ' on' : ''}`}
              data-testid={`mode-${mode}`}
              onClick={() => setFilterMode(mode)}
            >
              {mode}
            </button>
          ))}
        </div>
        {filter.rowIds && (
          <button
            type="button"
            className="chip on picked"
            data-testid="picked-rows"
            title="Rows picked in the perf view: click to show all again"
            onClick={() => {
              patchFilter({ rowIds: undefined });
              setPickedLabel(null);
            }}
          >
            {pickedLabel ?? 'picked'}: {filter.rowIds.length} rows ×
          </button>
        )}
        {/* joining opens the file again: a shared report cannot */}
        {(file.bootstrapRooms ?? 0) > 0 && host.kind !== 'report' && (
          <label
            className="mode"
            title="Without the router, the prefill and decode halves of a request are separate traces sharing a bootstrap_room"
          >
            <input
              type="checkbox"
              checked={file.joinedByBootstrapRoom ?? false}
              data-testid="join-bootstrap"
              onChange={(event) => {
                const join = event.target.checked;
                void host.api.reopen(file.fileId, { joinByBootstrapRoom: join }).then((result) => {
                  if (result.ok) useFilesStore.getState().replaceFile(file.fileId, result.file);
                  else useFilesStore.getState().addError(result.error);
                });
              }}
            />{' '}
            join PD halves by bootstrap_room
          </label>
        )}
        {active && (
          <button
            type="button"
            className="button small"
            onClick={() => {
              typed.current = false;
              setText('');
              setRewardText({ min: '', max: '' });
              setFilter({});
              setPickedLabel(null);
            }}
            data-testid="clear-filters"
            title="Clear search and filters"
          >
            Clear ({activeConditionCount(filter)})
          </button>
        )}
      </div>
    </div>
  );
}

function ChipGroup({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <span className="chip-group" role="group" aria-label={label}>
      <span className="chip-group-label">{label}</span>
      {children}
    </span>
  );
}

function Chip({
  on,
  testId,
  value,
  onClick,
  children,
}: {
  on: boolean;
  testId: string;
  value: string;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      className={`chip${on ? ' on' : ''}`}
      aria-pressed={on}
      data-testid={testId}
      data-value={value}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
