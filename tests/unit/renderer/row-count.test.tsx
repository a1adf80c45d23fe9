import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { FileSummary } from '../../../src-main/core/api/trace-api';
import type { ShownOrder } from '../../../src-renderer/host/shown-order';
import { RowCount } from '../../../src-renderer/toolbar/RowCount';

// The toolbar's "N / M rows" while a dump is read: the page holds the file's summary of one
// preview and an order answered from another (the server answers from its newest store).

const file = (rows: number, untraced = 0) =>
  ({
    rows,
    untracedSamples: untraced,
    capabilities: { facets: { untraced: true } },
  }) as unknown as FileSummary;

const order = (shown: number, total: number) =>
  ({ rowIds: new Int32Array(shown), total, storeVersion: 1 }) as unknown as ShownOrder;

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/<!-- -->/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('the row count', () => {
  it('counts out of the order’s own rows, never more shown than there are', () => {
    // summary of the 1,000-row preview, order made on the 2,000-row one
    const html = renderToStaticMarkup(
      <RowCount file={file(1000)} order={order(2000, 2000)} highlighting={false} matching={null} />,
    );
    expect(text(html)).toBe('2000 / 2000 rows · 0 samples without trace');
    expect(html).toContain('data-shown="2000"');
    expect(html).toContain('data-total="2000"');
  });

  it('a filtered order: its rows out of all it was picked from; no order yet: the file’s', () => {
    expect(
      text(
        renderToStaticMarkup(
          <RowCount file={file(16, 1)} order={order(3, 16)} highlighting={false} matching={null} />,
        ),
      ),
    ).toBe('3 / 16 rows · 1 sample without trace');
    expect(
      text(
        renderToStaticMarkup(
          <RowCount file={file(16)} order={null} highlighting={false} matching={null} />,
        ),
      ),
    ).toBe('… / 16 rows · 0 samples without trace');
  });

  it('highlighting: the matches out of the order’s rows', () => {
    const html = renderToStaticMarkup(
      <RowCount file={file(10)} order={order(12, 12)} highlighting matching={new Set([1, 2])} />,
    );
    expect(text(html)).toBe('2 match of 12 rows · 0 samples without trace');
    expect(html).toContain('data-mode="highlight"');
  });
});
