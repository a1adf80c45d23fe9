import { useEffect, useState } from 'react';
import type { AttrValue, Attrs } from '../../src-main/core/model/row';
import type {
  FileSummary,
  LazyValues,
  RowView,
  SampleDetails,
  SpanDetails,
} from '../../src-main/core/api/trace-api';
import { pdPhaseColour } from '../../src-main/core/model/pd-phases';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { formatDuration } from '../timeline/time-window';
import { AttrTable } from './AttrTable';
import { ChatMessages } from './ChatMessages';
import './details.css';

/** The selected span, event or row: what it is, its attrs, and the sample behind it. */
export function DetailsPanel({ host, file }: { host: TraceHost; file: FileSummary }) {
  const selection = useViewStore((s) => s.selection);
  const select = useViewStore((s) => s.select);
  const [span, setSpan] = useState<SpanDetails | null>(null);
  const [sample, setSample] = useState<SampleDetails | null>(null);
  const [row, setRow] = useState<RowView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mine = selection && selection.fileId === file.fileId ? selection : null;

  useEffect(() => {
    let live = true;
    setSpan(null);
    setSample(null);
    setRow(null);
    setError(null);
    if (!mine) return;
    void host.api
      .getRows(file.fileId, [mine.rowId])
      .then((rows) => live && setRow(rows[0] ?? null));
    const spanRequest =
      mine.index === null
        ? Promise.resolve(null)
        : host.api.getSpan(file.fileId, mine.rowId, mine.index);
    const sampleRequest =
      file.format === 'slime' ? host.api.getSample(file.fileId, mine.rowId) : Promise.resolve(null);
    Promise.all([spanRequest, sampleRequest]).then(
      ([s, d]) => {
        if (!live) return;
        setSpan(s);
        setSample(d);
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [host, file.fileId, file.format, mine?.rowId, mine?.index]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <aside className="details-panel" data-testid="details-panel">
      {!mine && (
        <div className="muted">Select a span or a row to see its details. Escape closes them.</div>
      )}
      {mine && (
        <button
          type="button"
          className="button small details-close"
          onClick={() => select(null)}
          aria-label="Close details"
        >
          ×
        </button>
      )}
      {error && <div className="error-banner">{error}</div>}
      {span && <SpanSection span={span} />}
      {row && !sample && <RowSection row={row} />}
      {sample && <SampleSection host={host} file={file} sample={sample} />}
    </aside>
  );
}

function SpanSection({ span }: { span: SpanDetails }) {
  const state =
    span.state === 'open_span'
      ? `ongoing (never ended; drawn until ${String(span.endAttrs.clipped_by ?? '').replace(/_/g, ' ')})`
      : span.state === 'orphan_end'
        ? 'unmatched end (no span_start with this id)'
        : span.state === 'point_event'
          ? 'instant event'
          : 'closed';
  return (
    <section className="details-section" data-testid="span-details">
      <h3 className="details-title">{span.name}</h3>
      <table className="facts">
        <tbody>
          <Fact label="state" value={state} />
          <Fact label="start" value={`+${formatDuration(span.startSec)}`} />
          {span.kind === 'span' && (
            <Fact
              label="end"
              value={span.endSec === null ? '—' : `+${formatDuration(span.endSec)}`}
            />
          )}
          {span.kind === 'span' && (
            <Fact
              label="duration"
              value={formatDuration(span.durationSec)}
              testId="span-duration"
            />
          )}
          <Fact label="parent" value={span.parentSpanName ?? span.parentSpanId ?? '—'} />
          <Fact label="span id" value={span.spanId ?? '—'} />
          <Fact label="attempt" value={String(span.attempt ?? '—')} />
        </tbody>
      </table>
      {span.pd && <PdBreakdown pd={span.pd} />}
      {span.otel && <AttrTable title="OpenTelemetry" attrs={span.otel as Attrs} />}
      {span.links && span.links.length > 0 && (
        <div className="links" data-testid="span-links">
          <h4>Links</h4>
          {span.links.map((l, i) => (
            <div key={i} className={l.dangling ? 'dangling' : ''}>
              {l.traceId.slice(0, 8)}/{l.spanId} {l.dangling ? '(not in the file)' : ''}
            </div>
          ))}
        </div>
      )}
      <AttrTable
        title={span.kind === 'span' ? 'start attrs' : 'attrs'}
        attrs={span.startAttrs}
        testId="start-attrs"
      />
      {span.kind === 'span' && (
        <AttrTable title="end attrs" attrs={span.endAttrs} testId="end-attrs" />
      )}
    </section>
  );
}

function PdBreakdown({ pd }: { pd: NonNullable<SpanDetails['pd']> }) {
  const total = pd.phases.reduce((s, p) => s + p.durationSec, 0);
  return (
    <div className="pd-breakdown" data-testid="pd-breakdown">
      <h4>{pd.role} phases</h4>
      <div className="pd-bar">
        {pd.phases.map((p) => (
          <span
            key={p.phase}
            style={{ flex: p.durationSec, background: pdPhaseColour(pd.role, p.phase) }}
            title={p.phase}
          />
        ))}
      </div>
      <table className="facts">
        <tbody>
          {pd.phases.map((p) => (
            <tr key={p.phase}>
              <td>
                <span className="swatch" style={{ background: pdPhaseColour(pd.role, p.phase) }} />
                {p.phase.replace(/_/g, ' ')}
              </td>
              <td className="num">{(p.durationSec * 1000).toFixed(2)} ms</td>
              <td className="num">
                {total > 0 ? ((p.durationSec / total) * 100).toFixed(1) : '0'}%
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const TOKEN_FIELDS = ['tokens', 'loss_mask', 'rollout_log_probs', 'teacher_log_probs'];

function SampleSection({
  host,
  file,
  sample,
}: {
  host: TraceHost;
  file: FileSummary;
  sample: SampleDetails;
}) {
  const f = sample.fields;
  const [loaded, setLoaded] = useState<Record<string, LazyValues | string>>({});
  const load = (field: string) => {
    host.api.getLazyValues(file.fileId, sample.rowId, field).then(
      (values) => setLoaded((prev) => ({ ...prev, [field]: values })),
      (e: unknown) =>
        setLoaded((prev) => ({ ...prev, [field]: e instanceof Error ? e.message : String(e) })),
    );
  };
  const { prompt, response, trace: _trace, metadata, ...rest } = f;
  void _trace;
  const lengthOf = (v: AttrValue) =>
    Array.isArray(v)
      ? v.length
      : v && typeof v === 'object' && 'length' in v
        ? Number((v as { length: number }).length)
        : null;
  return (
    <section className="details-section" data-testid="sample-details">
      <h3 className="details-title">
        Sample #{String(f.index ?? sample.rowId)}{' '}
        <span className="muted">group {String(f.group_index ?? '—')}</span>
      </h3>
      <table className="facts">
        <tbody>
          <Fact label="status" value={String(f.status ?? '—')} />
          <Fact
            label="reward"
            value={
              f.reward === null || f.reward === undefined
                ? '—'
                : typeof f.reward === 'object'
                  ? JSON.stringify(f.reward)
                  : String(f.reward)
            }
            testId="sample-reward"
          />
          <Fact
            label="label"
            value={
              f.label === null || f.label === undefined
                ? '—'
                : String(typeof f.label === 'object' ? JSON.stringify(f.label) : f.label)
            }
          />
          <Fact label="response length" value={String(f.response_length ?? '—')} />
        </tbody>
      </table>
      <div className="token-fields">
        {TOKEN_FIELDS.filter(
          (k) => f[k] !== undefined && f[k] !== null && lengthOf(f[k]) !== null,
        ).map((k) => {
          const value = loaded[k];
          return (
            <div key={k} className="token-field">
              <span>
                {k}: <b>{lengthOf(f[k])}</b>
              </span>
              {value === undefined ? (
                <button
                  type="button"
                  className="button small"
                  onClick={() => load(k)}
                  data-testid={`load-${k}`}
                >
                  Load values
                </button>
              ) : typeof value === 'string' ? (
                <span className="error-code">{value}</span>
              ) : (
                <code className="token-values" data-testid={`values-${k}`}>
                  [
                  {value.values
                    .slice(0, 200)
                    .map((v) => (Number.isInteger(v) ? v : v.toFixed(4)))
                    .join(', ')}
                  {value.length > 200 ? `, … ${value.length - 200} more` : ''}]
                </code>
              )}
            </div>
          );
        })}
      </div>
      <h4>Prompt</h4>
      <ChatMessages value={prompt ?? null} />
      <h4>Response</h4>
      <pre className="text-block" data-testid="sample-response">
        {typeof response === 'string' ? response : JSON.stringify(response)}
      </pre>
      {metadata && typeof metadata === 'object' && (
        <AttrTable title="metadata" attrs={metadata as Attrs} />
      )}
      <AttrTable title="other fields" attrs={rest as Attrs} />
    </section>
  );
}

/** A trace row (OTLP): what it is and how long it ran. */
function RowSection({ row }: { row: RowView }) {
  return (
    <section className="details-section" data-testid="row-details">
      <h3 className="details-title">{String(row.label ?? `row ${row.rowId}`)}</h3>
      <table className="facts">
        <tbody>
          <Fact label="trace id" value={row.traceId ?? '—'} />
          <Fact label="service" value={row.source ?? '—'} />
          <Fact label="status" value={row.status ?? '—'} />
          <Fact label="duration" value={formatDuration(row.endSec - row.startSec)} />
          <Fact label="lanes" value={String(row.laneCount)} />
          <Fact label="items" value={String(row.items.length)} />
        </tbody>
      </table>
    </section>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <tr>
      <th>{label}</th>
      <td data-testid={testId}>{value}</td>
    </tr>
  );
}
