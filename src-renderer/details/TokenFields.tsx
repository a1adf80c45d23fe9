import { Fragment, useState, type ReactNode } from 'react';
import type { Attrs } from '../../src-main/core/model/row';
import type { FileSummary, LazyValues, SampleFieldPath } from '../../src-main/core/api/trace-api';
import { useHost } from '../host/host-context';
import { summariseValues, tokenCounts, type TensorField } from './token-values';
import { CopyButton } from '../widgets/CopyButton';

/**
 * Token counts at once; token ids, loss mask and log probs only when asked: main kept their
 * byte ranges and re-reads them on request (they are most of a dump's bytes).
 */
export function TokenFields({
  file,
  rowId,
  fields,
}: {
  file: FileSummary;
  rowId: number;
  fields: Attrs;
}) {
  const { responseLength, counts } = tokenCounts(fields);
  if (responseLength === null && counts.length === 0) return null;
  return (
    <div className="token-fields" data-testid="token-counts">
      <h4>Tokens</h4>
      <table className="facts">
        <tbody>
          {responseLength !== null && (
            <tr>
              <th>response_length</th>
              <td data-testid="response-length">{responseLength}</td>
            </tr>
          )}
          {counts.map(({ field, length }) => (
            <LoadableValues
              key={`${rowId} ${field}`}
              file={file}
              rowId={rowId}
              field={field}
              path={field}
              length={length}
            >
              <span className="token-length" data-testid={`length-${field}`}>
                {length}
              </span>
            </LoadableValues>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The sample's other tensors (slime's routed experts, top-p token ids, ...) and long lists of
 * numbers: dtype and shape at once, values when asked, read from the file like the tokens.
 */
export function TensorFields({
  file,
  rowId,
  tensors,
}: {
  file: FileSummary;
  rowId: number;
  /** tensorFields of the sample */
  tensors: TensorField[];
}) {
  if (tensors.length === 0) return null;
  return (
    <div className="token-fields" data-testid="tensor-fields">
      <h4>Tensors</h4>
      <table className="facts">
        <tbody>
          {tensors.map(({ field, path, length, shape, dtype }) => (
            <LoadableValues
              key={`${rowId} ${field}`}
              file={file}
              rowId={rowId}
              field={field}
              path={path}
              length={length}
            >
              <span className="token-length" data-testid={`shape-${field}`}>
                {dtype} [{shape === null ? length : shape.join(' × ')}]
              </span>
            </LoadableValues>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One field's row: what it is (`children`), then Load values, then its values and Copy. */
function LoadableValues({
  file,
  rowId,
  field,
  path,
  length,
  children,
}: {
  file: FileSummary;
  rowId: number;
  /** its name (test ids, the copy's title) */
  field: string;
  /** what getLazyValues is asked for */
  path: SampleFieldPath;
  length: number;
  children: ReactNode;
}) {
  const host = useHost();
  const [value, setValue] = useState<LazyValues | string | 'loading' | undefined>(undefined);
  const [expanded, setExpanded] = useState(false);
  const load = () => {
    setValue('loading');
    host.api
      .getLazyValues(file.fileId, rowId, path)
      .then(setValue, (e: unknown) => setValue(e instanceof Error ? e.message : String(e)));
  };
  return (
    <tr data-field={field}>
      <th title={field}>
        {/* a long name wraps after a dot or an underscore before anywhere else */}
        {field.split(/(?<=[._])/).map((part, k) => (
          <Fragment key={k}>
            {part}
            <wbr />
          </Fragment>
        ))}
      </th>
      <td>
        {children}{' '}
        {value === undefined && host.kind === 'report' ? (
          // a shared report carries lengths, not the values: main re-reads those from the file
          <span className="muted" data-testid={`no-values-${field}`}>
            values not in this report
          </span>
        ) : value === undefined ? (
          <button
            type="button"
            className="button small"
            onClick={load}
            data-testid={`load-${field}`}
            disabled={length === 0}
          >
            Load values
          </button>
        ) : value === 'loading' ? (
          <span className="muted">loading…</span>
        ) : typeof value === 'string' ? (
          <span className="error-code">{value}</span>
        ) : (
          <>
            <CopyButton
              text={() => JSON.stringify(value.values)}
              label="Copy"
              title={`Copy ${field} as JSON`}
            />{' '}
            <button type="button" className="button small" onClick={() => setExpanded((e) => !e)}>
              {expanded ? 'Less' : 'All'}
            </button>
            <code className="token-values" data-testid={`values-${field}`}>
              {expanded ? value.values.join(' ') : summariseValues(field, value.values)}
              {value.values.length < value.length
                ? ` (first ${value.values.length} of ${value.length})`
                : ''}
            </code>
          </>
        )}
      </td>
    </tr>
  );
}
