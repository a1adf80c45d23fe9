import type { ItemView, RowView, RunJoins } from '../../src-main/core/api/trace-api';
import { formatSec, nameColour } from './run-model';

export const SERVER_LANE_PX = 10;
const CLIENT_PX = 14;
const GAP_PX = 16;

/** Height of one joined request's block under its sample. */
export function serverBlockHeight(server: RowView | undefined): number {
  return CLIENT_PX + GAP_PX + (server ? server.laneCount : 4) * SERVER_LANE_PX + 8;
}

/**
 * One joined request under its sample, zoomed to the client's generate span: the client bar,
 * SGLang's spans by thread below it, and a flow arrow from the client span to the server trace.
 */
export function ServerLanes({
  link,
  client,
  clientOriginSec,
  server,
  serverOriginSec,
  width,
  onOpenRequest,
}: {
  link: RunJoins['links'][number];
  client: ItemView;
  clientOriginSec: number;
  server: RowView | undefined;
  serverOriginSec: number;
  width: number;
  onOpenRequest(): void;
}) {
  const from = clientOriginSec + client.startSec;
  const to = clientOriginSec + client.endSec;
  const pad = (to - from) * 0.04 + 1e-6;
  const x = (sec: number) => ((sec - (from - pad)) / (to - from + 2 * pad)) * width;
  const serverTop = CLIENT_PX + GAP_PX;
  const serverStart = server ? serverOriginSec + server.startSec : from + link.leadSec;
  return (
    <div className="run-server-block" data-testid="run-server-lanes" data-rid={link.rid}>
      <svg width={width} height={serverBlockHeight(server)}>
        <defs>
          <marker
            id="run-arrow"
            viewBox="0 0 8 8"
            refX="7"
            refY="4"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L8,4 L0,8 z" className="run-flow-head" />
          </marker>
        </defs>
        <rect
          x={x(from)}
          y={1}
          width={Math.max(1, x(to) - x(from))}
          height={CLIENT_PX - 2}
          fill={nameColour(client.name)}
        />
        <text x={x(from) + 4} y={CLIENT_PX - 3} className="run-bar-label">
          {client.name} · {formatSec(to - from)} · rid {link.rid.slice(0, 8)}
        </text>
        {(server?.items ?? []).map((item) =>
          item.kind === 'span' ? (
            <rect
              key={item.index}
              x={x(serverOriginSec + item.startSec)}
              y={serverTop + item.lane * SERVER_LANE_PX}
              width={Math.max(
                1,
                x(serverOriginSec + item.endSec) - x(serverOriginSec + item.startSec),
              )}
              height={SERVER_LANE_PX - 2}
              fill={nameColour(item.name)}
              className={item.error ? 'run-error' : undefined}
            >
              <title>
                {item.name}
                {item.laneLabel ? ` (${item.laneLabel})` : ''}{' '}
                {formatSec(item.endSec - item.startSec)}
              </title>
            </rect>
          ) : null,
        )}
        <path
          d={`M${x(from)},${CLIENT_PX - 1} C${x(from)},${serverTop - 4} ${x(serverStart)},${CLIENT_PX + 2} ${x(serverStart)},${serverTop - 1}`}
          className="run-flow"
          markerEnd="url(#run-arrow)"
          data-testid="run-flow-arrow"
        />
      </svg>
      <button
        type="button"
        className="run-link-button"
        data-testid="run-open-request"
        onClick={onOpenRequest}
      >
        SGLang request {link.rid.slice(0, 8)} →
      </button>
    </div>
  );
}
