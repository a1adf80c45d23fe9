import { jsonText } from '../../src-main/core/model/json-text';
import { useEffect, useState } from 'react';
import type { RowView, RunResult } from '../../src-main/core/api/trace-api';
import type { Attrs } from '../../src-main/core/model/row';
import type { TraceHost } from '../host/trace-host';
import { formatSec, keyOf } from './run-model';
import { SampleExtraFigures } from '../details/SampleExtraFigures';
import { SampleTimingTable } from '../details/SampleTimingTable';
import { SampleRewardValue, SampleStatusValue } from '../details/SampleOutcome';
import { ChatMessages } from '../details/ChatMessages';

export type RunSelection =
  | { kind: 'sample'; file: number; rowId: number }
  | { kind: 'server'; file: number; rowId: number; rid: string }
  | { kind: 'trainer'; file: number; rowId: number; index: number }
  | { kind: 'gpu'; file: number; rowId: number; index: number };

type Link = RunResult['joins']['links'][number];

/**
 * Details of what is selected in a run: a sample (weight versions, staleness, each request it
 * made with the server's breakdown), an SGLang request (its stages, the sample that made it), or
 * a trainer record (all its fields).
 */
export function RunDetails({
  host,
  result,
  selection,
  onGoToRequest,
  onGoToSample,
}: {
  host: TraceHost;
  result: RunResult;
  selection: RunSelection | null;
  onGoToRequest(link: Link): void;
  onGoToSample(file: number, rowId: number): void;
}) {
  const [fields, setFields] = useState<Attrs | null>(null);
  // the sample's row, for its timing split (the file's page shows the same)
  const [row, setRow] = useState<RowView | null>(null);
  const fileId = selection ? result.files[selection.file].file.fileId : null;
  useEffect(() => {
    setFields(null);
    setRow(null);
    if (!selection || !fileId) return;
    let live = true;
    if (selection.kind === 'sample') {
      void host.api.getSample(fileId, selection.rowId).then((s) => live && setFields(s.fields));
      void host.api
        .getRows(fileId, [selection.rowId])
        .then((rows) => live && setRow(rows[0] ?? null));
    } else if (selection.kind === 'trainer' || selection.kind === 'gpu') {
      void host.api.getSpan(fileId, selection.rowId, selection.index).then((s) => {
        if (live)
          setFields({
            [selection.kind === 'gpu' ? 'name' : 'operation']: s.name,
            duration: formatSec(s.durationSec),
            ...(s.kind === 'span' ? s.startAttrs : s.startAttrs),
          });
      });
    }
    return () => {
      live = false;
    };
  }, [host, fileId, selection]);
  if (!selection) {
    return (
      <p className="muted run-hint">
        Click a sample, a trainer or GPU bar, or an unjoined request.
      </p>
    );
  }
  const { joins } = result;
  if (selection.kind === 'trainer' || selection.kind === 'gpu') {
    return (
      <div data-testid="run-details" data-kind={selection.kind}>
        <h3>{selection.kind === 'gpu' ? 'GPU profile event' : 'Trainer record'}</h3>
        <FieldTable fields={fields ?? {}} />
      </div>
    );
  }
  if (selection.kind === 'server') {
    const link = joins.links.find((l) => l.rid === selection.rid);
    const orphan = joins.serverRequestsWithoutSample.find((s) => s.rid === selection.rid);
    return (
      <div data-testid="run-details" data-kind="server">
        <h3>
          SGLang request <code data-testid="run-details-rid">{selection.rid}</code>
        </h3>
        {link ? (
          <>
            <Stages link={link} />
            <button
              type="button"
              className="run-link-button"
              data-testid="run-back-to-sample"
              onClick={() => onGoToSample(link.client.file, link.client.rowId)}
            >
              ← back to its sample
            </button>
          </>
        ) : (
          <p data-testid="run-orphan-note">
            No sample asked for it{orphan?.error ? ' (ERROR on the server: aborted)' : ''}.
            {orphan?.likelyClient ? (
              <button
                type="button"
                className="run-link-button"
                onClick={() => onGoToSample(orphan.likelyClient!.file, orphan.likelyClient!.rowId)}
              >
                likely rollout {String(orphan.likelyClient.rolloutId)} sample{' '}
                {String(orphan.likelyClient.sampleIndex)}, attempt{' '}
                {String(orphan.likelyClient.attempt)} (a generate span without request id)
              </button>
            ) : null}
          </p>
        )}
      </div>
    );
  }
  const links = joins.links.filter(
    (l) => l.client.file === selection.file && l.client.rowId === selection.rowId,
  );
  const stale = joins.stale.find(
    (s) => keyOf(s.file, s.rowId) === keyOf(selection.file, selection.rowId),
  );
  const unjoined = joins.samplesWithoutServerRequest.find(
    (s) => keyOf(s.file, s.rowId) === keyOf(selection.file, selection.rowId),
  );
  const rollout = joins.rollouts.find((r) => r.file === selection.file);
  return (
    <div data-testid="run-details" data-kind="sample">
      <h3>
        Rollout {String(rollout?.rolloutId ?? '?')} · sample{' '}
        {String(fields?.index ?? selection.rowId)}
      </h3>
      <p>
        weight versions{' '}
        <code data-testid="run-weight-versions">{jsonText(fields?.weight_versions ?? null)}</code>;
        rollout&apos;s newest v{String(rollout?.weightVersion ?? '-')}
        {stale ? <span className="run-stale-badge">stale</span> : null}
      </p>
      {row && <SampleTimingTable row={row} />}
      <table className="facts">
        <tbody>
          <tr>
            <th>status</th>
            <td data-testid="run-sample-status">
              <SampleStatusValue status={fields?.status} />
            </td>
          </tr>
          <tr>
            <th>reward</th>
            <td data-testid="run-sample-reward">
              <SampleRewardValue reward={fields?.reward} />
            </td>
          </tr>
        </tbody>
      </table>
      {unjoined ? <p className="muted">no server request: {unjoined.reason}</p> : null}
      {links.map((link) => (
        <div key={link.rid} className="run-link-card">
          <div>
            request <code>{link.rid}</code>: server {formatSec(link.leadSec)} after the client span
            starts, ends {formatSec(link.tailSec)} before it ends
          </div>
          <Stages link={link} />
          <button
            type="button"
            className="run-link-button"
            data-testid="run-details-open-request"
            onClick={() => onGoToRequest(link)}
          >
            open SGLang request →
          </button>
        </div>
      ))}
      <SampleExtraFigures
        host={host}
        result={result}
        file={selection.file}
        rowId={selection.rowId}
      />
      {fields && fields.prompt !== undefined && (
        <div data-testid="run-sample-prompt">
          <h4>Prompt</h4>
          <ChatMessages value={fields.prompt} />
        </div>
      )}
    </div>
  );
}

function Stages({ link }: { link: Link }) {
  return (
    <table className="run-stages" data-testid="run-stages">
      <thead>
        <tr>
          <th>stage</th>
          <th>thread (rank)</th>
          <th>time</th>
        </tr>
      </thead>
      <tbody>
        {link.stages.map((s) => (
          <tr key={`${s.stage}:${s.lane}`}>
            <td>{s.stage}</td>
            <td>{s.lane ?? ''}</td>
            <td>{formatSec(s.durationSec)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FieldTable({ fields }: { fields: Attrs }) {
  return (
    <table className="run-stages">
      <tbody>
        {Object.entries(fields).map(([k, v]) => (
          <tr key={k}>
            <td>{k}</td>
            <td>
              <code>{typeof v === 'string' ? v : jsonText(v)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
