import { jsonText } from '../../src-main/core/model/json-text';
import { useMemo, useState } from 'react';
import type { Attrs } from '../../src-main/core/model/row';
import { copyText, flattenAttrs, searchAttrs } from './attr-search';
import { CopyButton, CopyIcon } from '../widgets/CopyButton';

/** Tables with this many entries or more get their own search box. */
const SEARCH_FROM = 5;

/**
 * Attributes as a searchable table: nested dicts spread into dotted keys, each value copyable,
 * the whole set copyable as JSON.
 */
export function AttrTable({
  title,
  attrs,
  testId,
  query: outerQuery = '',
}: {
  title: string;
  attrs: Attrs | null | undefined;
  testId?: string;
  /** a search typed above several tables at once (the panel's attribute search) */
  query?: string;
}) {
  const [ownQuery, setOwnQuery] = useState('');
  const entries = useMemo(() => flattenAttrs(attrs), [attrs]);
  const query = `${outerQuery} ${ownQuery}`.trim();
  const shown = useMemo(() => searchAttrs(entries, query), [entries, query]);

  return (
    <div className="attr-table" data-testid={testId} data-count={entries.length}>
      <h4>
        <span>{title}</span>
        {entries.length > 0 && (
          <span className="muted attr-count">
            {shown.length === entries.length
              ? entries.length
              : `${shown.length} of ${entries.length}`}
          </span>
        )}
        {entries.length > 0 && (
          <CopyButton
            text={() => jsonText(attrs, 2)}
            label="Copy all"
            title="Copy all as JSON"
            testId={testId ? `${testId}-copy-all` : undefined}
          />
        )}
        {entries.length >= SEARCH_FROM && (
          <input
            className="attr-search"
            type="search"
            placeholder="filter"
            aria-label={`Filter ${title}`}
            value={ownQuery}
            onChange={(e) => setOwnQuery(e.target.value)}
          />
        )}
      </h4>
      {entries.length === 0 ? (
        <div className="muted">none</div>
      ) : shown.length === 0 ? (
        <div className="muted">no attribute matches “{query}”</div>
      ) : (
        <table>
          <tbody>
            {shown.map((entry) => (
              <tr key={entry.key} data-key={entry.key}>
                <th title={entry.key}>{entry.key}</th>
                <td>
                  <span
                    className="attr-value"
                    data-raw={typeof entry.value === 'number' ? String(entry.value) : undefined}
                    title={typeof entry.value === 'number' ? String(entry.value) : undefined}
                  >
                    {entry.text}
                  </span>
                  <CopyButton
                    text={() => copyText(entry.value)}
                    label={<CopyIcon />}
                    title={`Copy ${entry.key}`}
                    className="attr-copy"
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
