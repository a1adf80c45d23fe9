import { useEffect, useState } from 'react';
import type { RunResult } from '../../src-main/core/api/trace-api';
import type { Attrs, AttrValue } from '../../src-main/core/model/row';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';
import type { TraceHost } from '../host/trace-host';
import { TokenStrip } from './TokenStrip';
import { stripTokens, type StripToken } from './token-strip-model';
import './sample-extra.css';

/**
 * What the train dump and the request-metrics log say of one run sample (docs/run-extra.md):
 * its train/inference mismatch, the server's cache, retractions, DP rank, queue and client
 * overhead, and its token staleness; the per-token strip loads when asked, and each of its
 * requests' records opens here.
 */
export function SampleExtraFigures({
  host,
  result,
  file,
  rowId,
}: {
  host: TraceHost;
  result: RunResult;
  file: number;
  rowId: number;
}) {
  const figures = result.joins.extra?.samples.find((s) => s.file === file && s.rowId === rowId);
  if (!figures) return null;
  return (
    <div className="sample-extra" data-testid="sample-extra-figures">
      <h4>Trainer and server</h4>
      <table className="run-stages">
        <tbody>
          {figureRows(figures).map(([name, value, id]) => (
            <tr key={name}>
              <td>{name}</td>
              <td data-testid={id}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {figures.train ? (
        <StripLoader host={host} result={result} train={figures.train} key={`${file}:${rowId}`} />
      ) : null}
      {figures.requests.map((r) => (
        <MetricsRecord key={r.rid} host={host} result={result} request={r} />
      ))}
    </div>
  );
}

const pct = (v: number | null | undefined) => (v == null ? '–' : `${(v * 100).toFixed(2)} %`);
const num = (v: number | null | undefined, digits = 4) => (v == null ? '–' : v.toFixed(digits));
const ms = (v: number | null | undefined) => (v == null ? '–' : `${(v * 1e3).toFixed(2)} ms`);

function figureRows(f: RunSampleFigures): [string, string, string][] {
  const m = f.train?.mismatch ?? null;
  const cached = f.requests.reduce(
    (t, r) => ({
      device: t.device + (r.cachedDevice ?? 0),
      host: t.host + (r.cachedHost ?? 0),
      storage: t.storage + (r.cachedStorage ?? 0),
    }),
    { device: 0, host: 0, storage: 0 },
  );
  // HiCache's storage tier, said only when a record tells it (a server with storage)
  const storage = f.requests.some((r) => r.cachedStorage !== null)
    ? `, storage ${cached.storage}`
    : '';
  return [
    ['mean |Δ log p|', num(m?.meanAbsDelta), 'fig-mean-delta'],
    ['max |Δ log p|', num(m?.maxAbsDelta), 'fig-max-delta'],
    ['mean ratio exp(Δ)', num(m?.meanRatio), 'fig-mean-ratio'],
    ['ratio outside [0.5, 2]', pct(m?.outsideShare), 'fig-outside'],
    ['loss-masked tokens', m ? String(m.tokens) : '–', 'fig-tokens'],
    ['DP rank', f.dpRank === null ? '–' : String(f.dpRank), 'fig-dp-rank'],
    [
      'prefix-cache hit',
      f.cacheHit === null
        ? '–'
        : `${pct(f.cacheHit)} (device ${cached.device}, host ${cached.host}${storage})`,
      'fig-cache-hit',
    ],
    ['retractions', f.retractions === null ? '–' : String(f.retractions), 'fig-retractions'],
    ['server queue time', ms(f.queueSec), 'fig-queue'],
    ['client overhead', ms(f.clientOverheadSec), 'fig-overhead'],
    [
      'token staleness',
      f.staleness ? `mean ${num(f.staleness.mean, 2)}, max ${f.staleness.max}` : '–',
      'fig-staleness',
    ],
  ];
}

type Train = NonNullable<RunSampleFigures['train']>;

/** The per-token strip of a train sample: its tensors read from the train dump when asked. */
function StripLoader({
  host,
  result,
  train,
}: {
  host: TraceHost;
  result: RunResult;
  train: Train;
}) {
  const [tokens, setTokens] = useState<StripToken[] | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | string>('idle');
  const load = async () => {
    setState('loading');
    const fileId = result.files[train.file].file.fileId;
    const read = (field: string) =>
      host.api.getLazyValues(fileId, train.index, [field]).then(
        (v) => v.values,
        () => null,
      );
    const [lp, rlp, adv, ent, mask] = await Promise.all(
      ['log_probs', 'rollout_log_probs', 'advantages', 'entropy', 'loss_masks'].map(read),
    );
    if (!lp || !rlp) {
      setState('this train sample has no log_probs and rollout_log_probs');
      return;
    }
    setTokens(
      stripTokens({
        log_probs: lp,
        rollout_log_probs: rlp,
        advantages: adv,
        entropy: ent,
        loss_masks: mask,
      }),
    );
    setState('idle');
  };
  if (tokens) return <TokenStrip tokens={tokens} />;
  return (
    <p>
      <button
        type="button"
        className="run-link-button"
        data-testid="sample-token-strip-load"
        disabled={state === 'loading'}
        onClick={() => void load()}
      >
        per-token Δ log p, advantages, entropy
      </button>
      {state !== 'idle' && state !== 'loading' ? <span className="muted"> {state}</span> : null}
    </p>
  );
}

type Request = RunSampleFigures['requests'][number];

/** A request's record in the request-metrics log, opened (read again from its file) on a click. */
function MetricsRecord({
  host,
  result,
  request,
}: {
  host: TraceHost;
  result: RunResult;
  request: Request;
}) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<Attrs | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open || fields) return;
    let live = true;
    host.api.getSample(result.files[request.file].file.fileId, request.rowId).then(
      (s) => live && setFields(s.fields),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [open, fields, host, result, request]);
  return (
    <div className="run-link-card" data-testid="metrics-record" data-rid={request.rid}>
      <button
        type="button"
        className="run-link-button"
        data-testid="sample-open-metrics-record"
        onClick={() => setOpen(!open)}
      >
        {open ? '▾' : '▸'} request-metrics record <code>{request.rid}</code>
      </button>
      {open ? (
        error ? (
          <p className="error">{error}</p>
        ) : fields ? (
          <table className="run-stages" data-testid="metrics-record-fields">
            <tbody>
              {Object.entries(fields).map(([k, v]) => (
                <tr key={k}>
                  <td>{k}</td>
                  <td>
                    <code data-testid={`metrics-field-${k}`}>{shortValue(v)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">reading…</p>
        )
      ) : null}
    </div>
  );
}

/** A value as text, long lists (a prompt's input_ids, per-token log-probs) cut to their start. */
function shortValue(v: AttrValue): string {
  if (typeof v === 'string') return v.length > 400 ? `${v.slice(0, 400)}…` : v;
  if (Array.isArray(v) && v.length > 12)
    return `[${v
      .slice(0, 12)
      .map((x) => JSON.stringify(x))
      .join(', ')}, … ${v.length} items]`;
  if (v !== null && typeof v === 'object') {
    const text = JSON.stringify(v, (_k, inner: unknown) =>
      Array.isArray(inner) && inner.length > 12 ? `[${inner.length} items]` : inner,
    );
    return text.length > 600 ? `${text.slice(0, 600)}…` : text;
  }
  return JSON.stringify(v);
}
