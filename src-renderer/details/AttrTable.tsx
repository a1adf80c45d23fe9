import { useMemo, useState } from 'react';
import type { AttrValue, Attrs } from '../../src-main/core/model/row';

/** Attributes as a searchable table; each value and the whole set copy to the clipboard. */
export function AttrTable({
  title,
  attrs,
  testId,
}: {
  title: string;
  attrs: Attrs;
  testId?: string;
}) {
  const [query, setQuery] = useState('');
  const entries = useMemo(() => Object.entries(attrs ?? {}), [attrs]);
  const shown = entries.filter(
    ([k, v]) => !query || `${k} ${show(v)}`.toLowerCase().includes(query.toLowerCase()),
  );
  if (entries.length === 0) {
    return (
      <div className="attr-table" data-testid={testId}>
        <h4>{title}</h4>
        <div className="muted">none</div>
      </div>
    );
  }
  return (
    <div className="attr-table" data-testid={testId}>
      <h4>
        {title}
        <button
          type="button"
          className="button small"
          onClick={() => void copy(JSON.stringify(attrs, null, 2))}
          title="Copy all as JSON"
        >
          Copy
        </button>
        {entries.length > 6 && (
          <input
            className="attr-search"
            placeholder="filter"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </h4>
      <table>
        <tbody>
          {shown.map(([key, value]) => (
            <tr key={key} data-key={key}>
              <th>{key}</th>
              <td onDoubleClick={() => void copy(show(value))} title="Double-click to copy">
                {show(value)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function show(value: AttrValue): string {
  if (value === null) return 'null';
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (v.$lazy) return `list of ${String(v.length)} (load on request)`;
    if (v.$tensor || v.$ndarray)
      return `${v.$tensor ? 'tensor' : 'array'} ${String(v.dtype)} [${(v.shape as number[]).join(', ')}]`;
    if (v.$object) return `inert object ${String(v.$object)}(${JSON.stringify(v.args)})`;
    return JSON.stringify(value);
  }
  return String(value);
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // clipboard may be unavailable (serve mode over http on another host)
  }
}
