import { jsonText } from '../../src-main/core/model/json-text';
import { useEffect, useState } from 'react';
import type { AttrValue, Attrs } from '../../src-main/core/model/row';
import type {
  FileSummary,
  RowView,
  SampleDetails,
  SpanDetails,
} from '../../src-main/core/api/trace-api';
import { useSpanDetails } from '../host/data-hooks';
import { useHost } from '../host/host-context';
import { formatExactClock } from '../timeline/time-format';
import { useViewStore } from '../state/view-store';
import { AttrTable } from './AttrTable';
import { ChatMessages } from './ChatMessages';
import { CopyButton } from '../widgets/CopyButton';
import { TensorFields, TokenFields } from './TokenFields';
import {
  formatAttrValue,
  formatDuration,
  formatMs,
  formatShare,
  formatWallClock,
} from './format-values';
import { describeSpanState, pdPhaseRows } from './span-facts';
import { tensorFields, TOKEN_FIELDS, withoutPaths } from './token-values';
import { SampleTimingTable } from './SampleTimingTable';
import { SampleRewardValue, SampleStatusValue } from './SampleOutcome';
import { detailsHint } from './details-hint';
import './details.css';
import { itemCountOf } from '../timeline/row-items';

/** The selected span, event or row: what it is, its attrs, and the sample behind it. */
export function DetailsPanel({ file }: { file: FileSummary }) {
  const host = useHost();
  const selection = useViewStore((s) => s.selection);
  const select = useViewStore((s) => s.select);
  const mine = selection && selection.fileId === file.fileId ? selection : null;
  const rowId = mine?.rowId ?? null;
  const index = mine?.index ?? null;
  const { row, span, sample, error } = useSpanDetails(file, rowId, index);

  // Escape closes the details wherever the focus is, also in the perf view (no timeline keys);
  // inside a filter box with text it first clears the text.
  useEffect(() => {
    if (rowId === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const target = event.target as HTMLInputElement | null;
      if (target?.tagName === 'INPUT' && target.value) return;
      select(null);
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  }, [rowId, select]);

  return (
    <aside
      className="details-panel"
      data-testid="details-panel"
      data-row-id={rowId ?? undefined}
      data-index={index ?? undefined}
    >
      {!mine && (
        <div className="details-empty muted" data-testid="details-empty">
          {detailsHint(file.capabilities, host.contentLeftOut)}
        </div>
      )}
      {mine && (
        <button
          type="button"
          className="button small details-close"
          onClick={() => select(null)}
          aria-label="Close details"
          title="Close (Escape)"
          data-testid="details-close"
        >
          ×
        </button>
      )}
      {error && <div className="error-banner">{error}</div>}
      {span && <SpanSection span={span} file={file} />}
      {row && !sample && <RowSection row={row} />}
      {sample && <SampleSection file={file} sample={sample} row={row} />}
    </aside>
  );
}

function SpanSection({ span, file }: { span: SpanDetails; file: FileSummary }) {
  const [query, setQuery] = useState('');
  const state = describeSpanState(span);
  const isSpan = span.kind === 'span';
  const wall = (sec: number) =>
    file.globalStartSec === null ? '' : formatWallClock(file.globalStartSec + sec);
  const attrCount = Object.keys(span.startAttrs).length + Object.keys(span.endAttrs).length;
  return (
    <section
      className="details-section"
      data-testid="span-details"
      data-state={state.tone}
      data-row-id={span.rowId}
      data-index={span.index}
    >
      <h3 className="details-title" data-testid="span-name">
        {span.name}
      </h3>
      <table className="facts">
        <tbody>
          <Fact label="state" testId="span-state">
            <span className={`state-pill state-${state.tone}`}>{state.label}</span>
            {state.detail && <div className="muted state-detail">{state.detail}</div>}
          </Fact>
          <Fact label={isSpan ? 'start' : 'time'} testId="span-start">
            <ClockTime sec={span.startSec} /> <span className="muted">{wall(span.startSec)}</span>
          </Fact>
          {isSpan && (
            <Fact label="end" testId="span-end">
              {span.endSec === null ? (
                <>
                  —{' '}
                  <span className="muted">
                    drawn to <ClockTime sec={span.displayEndSec} />
                  </span>
                </>
              ) : (
                <>
                  <ClockTime sec={span.endSec} /> <span className="muted">{wall(span.endSec)}</span>
                </>
              )}
            </Fact>
          )}
          {isSpan && (
            <Fact label="duration" testId="span-duration">
              <span data-seconds={span.durationSec}>{formatDuration(span.durationSec)}</span>
              {span.endSec === null && <span className="muted"> so far (drawn)</span>}
            </Fact>
          )}
          <Fact label="parent" testId="span-parent">
            {span.parentSpanName ?? (span.parentSpanId ? '' : '—')}
            {span.parentSpanId && <span className="muted mono"> {span.parentSpanId}</span>}
          </Fact>
          {span.spanId && (
            <Fact label="span id">
              <span className="mono">{span.spanId}</span>
            </Fact>
          )}
          {file.capabilities.facets.attempts &&
            span.attempt !== null &&
            span.attempt !== undefined && (
              <Fact label="attempt">{formatAttrValue(span.attempt)}</Fact>
            )}
        </tbody>
      </table>
      {span.pd && <PdBreakdown pd={span.pd} />}
      {span.otel && <OtelFacts otel={span.otel} />}
      {span.links && span.links.length > 0 && (
        <div className="links" data-testid="span-links">
          <h4>Links</h4>
          {span.links.map((l, i) => (
            <div
              key={i}
              className={`link mono${l.dangling ? ' dangling' : ''}`}
              data-dangling={l.dangling}
            >
              {l.dangling ? '⚠ ' : '→ '}
              {l.traceId.slice(0, 8)}…/{l.spanId}
              {l.dangling && <span> (not in the file)</span>}
            </div>
          ))}
        </div>
      )}
      {attrCount >= 6 && (
        <input
          className="attr-search panel-search"
          type="search"
          placeholder="Search attributes (key, value, key=value)"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="attr-search"
        />
      )}
      <AttrTable
        title={isSpan ? 'start attrs' : 'attrs'}
        attrs={span.startAttrs}
        testId="start-attrs"
        query={query}
      />
      {isSpan && (
        <AttrTable title="end attrs" attrs={span.endAttrs} testId="end-attrs" query={query} />
      )}
    </section>
  );
}

function PdBreakdown({ pd }: { pd: NonNullable<SpanDetails['pd']> }) {
  const { rows, totalSec } = pdPhaseRows(pd);
  return (
    <div className="pd-breakdown" data-testid="pd-breakdown" data-role={pd.role}>
      <h4>
        {pd.role} phases{' '}
        <span className="muted attr-count">{formatDuration(totalSec)} in phases</span>
      </h4>
      <div className="pd-bar" title="share of the request">
        {rows.map((p) => (
          <span
            key={p.phase}
            style={{ flex: `${p.durationSec} 0 0`, background: p.colour }}
            title={`${p.phase}: ${formatMs(p.durationSec)}`}
          />
        ))}
        {pd.parentDurationSec > totalSec && (
          <span className="pd-rest" style={{ flex: `${pd.parentDurationSec - totalSec} 0 0` }} />
        )}
      </div>
      <table className="facts pd-table">
        <thead>
          <tr>
            <th>phase</th>
            <th className="num">ms</th>
            <th className="num">% phases</th>
            <th className="num">% request</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.phase} data-phase={p.phase} data-seconds={p.durationSec}>
              <td>
                <span className="swatch" style={{ background: p.colour }} />
                {p.phase.replace(/_/g, ' ')}
              </td>
              <td className="num">{formatMs(p.durationSec)}</td>
              <td className="num">{formatShare(p.ofPhases, 1)}</td>
              <td className="num">{p.ofRequest === null ? '—' : formatShare(p.ofRequest, 1)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OtelFacts({ otel }: { otel: Attrs }) {
  const { kind, status_code, status_message, resource, scope, service, missingParent } = otel;
  const error = typeof status_code === 'string' && /error/i.test(status_code);
  return (
    <div className="otel" data-testid="otel-details">
      <h4>OpenTelemetry</h4>
      <table className="facts">
        <tbody>
          {kind !== undefined && <Fact label="kind">{formatAttrValue(kind)}</Fact>}
          <Fact label="status" testId="otel-status">
            <span className={error ? 'error-code' : ''}>
              {status_code === undefined ? 'unset' : formatAttrValue(status_code)}
            </span>
            {typeof status_message === 'string' && status_message && (
              <div className="muted">{status_message}</div>
            )}
          </Fact>
          {typeof service === 'string' && <Fact label="service">{service}</Fact>}
          {scope !== undefined && scope !== null && (
            <Fact label="scope">{formatAttrValue(scope)}</Fact>
          )}
          {missingParent === true && (
            <Fact label="parent">
              <span className="dangling">named parent is not in the file: shown as a root</span>
            </Fact>
          )}
        </tbody>
      </table>
      {resource && typeof resource === 'object' && !Array.isArray(resource) && (
        <AttrTable title="resource" attrs={resource} testId="otel-resource" />
      )}
    </div>
  );
}

/** Fields the sample section shows in their own place; the rest go to "other fields". */
const SHOWN_FIELDS = new Set<string>([
  'index',
  'group_index',
  'prompt',
  'response',
  'label',
  'reward',
  'status',
  'metadata',
  'response_length',
  'trace',
  ...TOKEN_FIELDS,
]);

function SampleSection({
  file,
  sample,
  row,
}: {
  file: FileSummary;
  sample: SampleDetails;
  row: RowView | null;
}) {
  const f = sample.fields;
  // tensors and long lists of numbers have their own section, with their values on request
  const tensors = tensorFields(f, SHOWN_FIELDS);
  const rest: Attrs = {};
  for (const key of Object.keys(f)) if (!SHOWN_FIELDS.has(key)) rest[key] = f[key];
  const others = withoutPaths(
    rest,
    tensors.map((t) => t.path),
  );
  const response = f.response;
  // a shared report without content holds a note where the prompt and response were: nothing
  // to copy, and its length is not the response's
  const leftOut = useHost().contentLeftOut === true;
  return (
    <section className="details-section" data-testid="sample-details" data-row-id={sample.rowId}>
      <h3 className="details-title">
        Sample #{formatAttrValue(f.index ?? row?.sampleIndex ?? sample.rowId)}{' '}
        <span className="muted">group {formatAttrValue(f.group_index ?? null)}</span>
      </h3>
      {row && <SampleTimingTable row={row} />}
      <table className="facts">
        <tbody>
          <Fact label="status" testId="sample-status">
            <SampleStatusValue status={f.status} />
          </Fact>
          <Fact label="reward" testId="sample-reward">
            <SampleRewardValue reward={f.reward} />
          </Fact>
          <Fact label="label" testId="sample-label">
            {f.label === null || f.label === undefined ? '—' : formatAttrValue(f.label)}
          </Fact>
          {row?.source && <Fact label="source">{row.source}</Fact>}
          {row?.traceId && (
            <Fact label="trace id">
              <span className="mono">{row.traceId}</span>
            </Fact>
          )}
          {row && file.capabilities.facets.attempts && row.attempt !== null && (
            <Fact label="attempt">{formatAttrValue(row.attempt)}</Fact>
          )}
        </tbody>
      </table>
      <TokenFields file={file} rowId={sample.rowId} fields={f} />
      <h4>
        Prompt
        {!leftOut && <CopyButton text={() => textOf(f.prompt)} title="Copy the prompt" />}
      </h4>
      <ChatMessages value={f.prompt} />
      <h4>
        Response
        {typeof response === 'string' && !leftOut && (
          <span className="muted attr-count">{response.length} chars</span>
        )}
        {!leftOut && <CopyButton text={() => textOf(response)} title="Copy the response" />}
      </h4>
      {response === null || response === undefined || response === '' ? (
        <div className="muted" data-testid="sample-response">
          (empty)
        </div>
      ) : (
        <pre className="text-block" data-testid="sample-response">
          {typeof response === 'string' ? response : jsonText(response, 2)}
        </pre>
      )}
      {f.metadata !== undefined && f.metadata !== null && (
        <AttrTable
          title="metadata"
          attrs={
            typeof f.metadata === 'object' && !Array.isArray(f.metadata)
              ? f.metadata
              : { metadata: f.metadata }
          }
          testId="sample-metadata"
        />
      )}
      <TensorFields file={file} rowId={sample.rowId} tensors={tensors} />
      <AttrTable title="other fields" attrs={others} testId="sample-other" />
    </section>
  );
}

function textOf(value: AttrValue | undefined): string {
  if (typeof value === 'string') return value;
  return jsonText(value ?? null, 2);
}

/** A trace row (OTLP): what it is and how long it ran. */
function RowSection({ row }: { row: RowView }) {
  return (
    <section className="details-section" data-testid="row-details">
      <h3 className="details-title">{formatAttrValue(row.label ?? `row ${row.rowId}`)}</h3>
      <table className="facts">
        <tbody>
          <Fact label="trace id">
            <span className="mono">{row.traceId ?? '—'}</span>
          </Fact>
          <Fact label="service">{row.source ?? '—'}</Fact>
          <Fact label="status">{row.status ?? '—'}</Fact>
          <Fact label="duration">{formatDuration(row.endSec - row.startSec)}</Fact>
          <Fact label="lanes">{String(row.laneCount)}</Fact>
          <Fact label="items" testId="row-item-count">
            {String(itemCountOf(row))}
          </Fact>
          {row.openSpanCount > 0 && <Fact label="ongoing">{String(row.openSpanCount)}</Fact>}
          {row.orphanCount > 0 && <Fact label="unmatched ends">{String(row.orphanCount)}</Fact>}
        </tbody>
      </table>
    </section>
  );
}

function Fact({
  label,
  children,
  testId,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <tr>
      <th>{label}</th>
      <td data-testid={testId}>{children}</td>
    </tr>
  );
}

/**
 * A time from the file's start in the timeline's clock format, exact to the microsecond (the
 * axis shows the same clock, rounded to its zoom); a click copies it.
 */
function ClockTime({ sec }: { sec: number }) {
  const text = formatExactClock(sec);
  return (
    <button
      type="button"
      className="clock-time"
      data-testid="clock-time"
      data-seconds={sec}
      title={`${sec} s from the file's start: click to copy`}
      onClick={() => void navigator.clipboard?.writeText(text)}
    >
      {text}
    </button>
  );
}
