import { useState } from 'react';
import type { Attrs } from '../../src-main/core/model/row';
import type { FileSummary, LazyValues } from '../../src-main/core/api/trace-api';
import { useHost } from '../host/host-context';
import { summariseValues, tokenCounts } from './token-values';
import { CopyButton } from './CopyButton';

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
  const host = useHost();
  const { responseLength, counts } = tokenCounts(fields);
  const [loaded, setLoaded] = useState<Record<string, LazyValues | string | 'loading'>>({});
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const load = (field: string) => {
    setLoaded((prev) => ({ ...prev, [field]: 'loading' }));
    host.api.getLazyValues(file.fileId, rowId, field).then(
      (values) => setLoaded((prev) => ({ ...prev, [field]: values })),
      (e: unknown) =>
        setLoaded((prev) => ({ ...prev, [field]: e instanceof Error ? e.message : String(e) })),
    );
  };
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
          {counts.map(({ field, length }) => {
            const value = loaded[field];
            return (
              <tr key={field} data-field={field}>
                <th>{field}</th>
                <td>
                  <span className="token-length" data-testid={`length-${field}`}>
                    {length}
                  </span>{' '}
                  {value === undefined ? (
                    <button
                      type="button"
                      className="button small"
                      onClick={() => load(field)}
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
                      <button
                        type="button"
                        className="button small"
                        onClick={() => setExpanded((p) => ({ ...p, [field]: !p[field] }))}
                      >
                        {expanded[field] ? 'Less' : 'All'}
                      </button>
                      <code className="token-values" data-testid={`values-${field}`}>
                        {expanded[field]
                          ? value.values.join(' ')
                          : summariseValues(field, value.values)}
                        {value.values.length < value.length
                          ? ` (first ${value.values.length} of ${value.length})`
                          : ''}
                      </code>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
