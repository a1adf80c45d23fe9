import { useEffect, useState } from 'react';
import type { FileSummary, RowOrder, SortKey } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { useFilesStore } from '../state/files-store';
import './toolbar.css';

const SORTS: [SortKey, string][] = [
  ['row_id', 'sample order'],
  ['start', 'start'],
  ['duration', 'duration'],
  ['reward', 'reward'],
  ['lane_count', 'lane count'],
  ['ongoing', 'ongoing spans'],
  ['sample_index', 'sample index'],
  ['group', 'group'],
];

/** Search, filters, sort and the counts of shown rows; the timeline / perf switch. */
export function Toolbar({
  host,
  file,
  order,
}: {
  host: TraceHost;
  file: FileSummary;
  order: RowOrder | null;
}) {
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
  const [text, setText] = useState(filter.text ?? '');

  useEffect(() => {
    const timer = setTimeout(() => patchFilter({ text: text || undefined }), 150);
    return () => clearTimeout(timer);
  }, [text, patchFilter]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key === '/' && target?.tagName !== 'INPUT') {
        event.preventDefault();
        document.querySelector<HTMLInputElement>('[data-testid="search-box"]')?.focus();
      }
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  }, []);

  const toggle = (key: 'statuses' | 'sources', value: string) => {
    const current = new Set(filter[key] ?? []);
    if (current.has(value)) current.delete(value);
    else current.add(value);
    patchFilter({ [key]: current.size > 0 ? [...current] : undefined });
  };
  const toggleAttempt = (attempt: number) => {
    const current = new Set(filter.attempts ?? []);
    if (current.has(attempt)) current.delete(attempt);
    else current.add(attempt);
    patchFilter({ attempts: current.size > 0 ? [...current] : undefined });
  };
  const shown =
    filterMode === 'highlight' && matching ? matching.size : (order?.rowIds.length ?? 0);
  const active = Object.values(filter).some(
    (v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );

  return (
    <div className="toolbar" data-testid="toolbar">
      <div className="toolbar-line">
        <div className="view-switch" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={view === 'timeline'}
            className={`button small${view === 'timeline' ? ' selected' : ''}`}
            onClick={() => setView('timeline')}
            data-testid="view-timeline"
          >
            Timeline
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={view === 'perf'}
            className={`button small${view === 'perf' ? ' selected' : ''}`}
            onClick={() => setView('perf')}
            data-testid="view-perf"
          >
            Perf
          </button>
        </div>
        <input
          className="search-box"
          data-testid="search-box"
          type="search"
          placeholder="Search index, source, status, label, trace id, attributes, span names  ( / )"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <label className="sort">
          Sort{' '}
          <select
            value={sort}
            onChange={(event) => setSort(event.target.value as SortKey, descending)}
            data-testid="sort-select"
          >
            {SORTS.map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button small"
            onClick={() => setSort(sort, !descending)}
            title="Direction"
            data-testid="sort-direction"
          >
            {descending ? '↓' : '↑'}
          </button>
        </label>
        <span className="row-count" data-testid="row-count">
          <b>{shown}</b> / {file.rows} rows
          {file.format === 'slime' && file.untracedSamples > 0 && (
            <span className="muted" data-testid="untraced-count">
              {' '}
              · {file.untracedSamples} samples without trace
            </span>
          )}
        </span>
      </div>
      <div className="toolbar-line filters">
        {file.statuses.map((status) => (
          <button
            key={status}
            type="button"
            className={`chip${filter.statuses?.includes(status) ? ' on' : ''}`}
            data-testid="status-chip"
            data-value={status}
            onClick={() => toggle('statuses', status)}
          >
            {status}
          </button>
        ))}
        {file.sources.length > 1 && <span className="sep" />}
        {file.sources.length > 1 &&
          file.sources.slice(0, 12).map((source) => (
            <button
              key={source}
              type="button"
              className={`chip${filter.sources?.includes(source) ? ' on' : ''}`}
              data-testid="source-chip"
              onClick={() => toggle('sources', source)}
            >
              {source}
            </button>
          ))}
        {file.attempts.length > 1 && <span className="sep" />}
        {file.attempts.length > 1 &&
          file.attempts.map((attempt) => (
            <button
              key={attempt}
              type="button"
              className={`chip${filter.attempts?.includes(attempt) ? ' on' : ''}`}
              data-testid="attempt-chip"
              onClick={() => toggleAttempt(attempt)}
            >
              attempt {attempt}
            </button>
          ))}
        <span className="sep" />
        <select
          value={filter.spanName ?? ''}
          onChange={(event) => patchFilter({ spanName: event.target.value || undefined })}
          data-testid="span-filter"
        >
          <option value="">any span</option>
          {file.spanNames.slice(0, 60).map(({ name }) => (
            <option key={name} value={name}>
              has {name}
            </option>
          ))}
        </select>
        <label className="reward-range">
          reward{' '}
          <input
            type="number"
            step="0.1"
            placeholder="min"
            value={filter.rewardMin ?? ''}
            onChange={(e) =>
              patchFilter({ rewardMin: e.target.value === '' ? undefined : Number(e.target.value) })
            }
          />
          –
          <input
            type="number"
            step="0.1"
            placeholder="max"
            value={filter.rewardMax ?? ''}
            onChange={(e) =>
              patchFilter({ rewardMax: e.target.value === '' ? undefined : Number(e.target.value) })
            }
          />
        </label>
        <label className="mode">
          <select
            value={filterMode}
            onChange={(event) => setFilterMode(event.target.value as 'filter' | 'highlight')}
            data-testid="filter-mode"
          >
            <option value="filter">filter</option>
            <option value="highlight">highlight</option>
          </select>
        </label>
        {filter.rowIds && <span className="chip on">{filter.rowIds.length} picked in perf</span>}
        {(file.bootstrapRooms ?? 0) > 0 && (
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
              setText('');
              setFilter({});
            }}
            data-testid="clear-filters"
          >
            Clear
          </button>
        )}
      </div>
    </div>
  );
}
