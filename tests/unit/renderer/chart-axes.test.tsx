import { renderToStaticMarkup } from 'react-dom/server';
import { scaleLinear } from '@visx/scale';
import { describe, expect, it } from 'vitest';
import { ChartAxes } from '../../../src-renderer/perf/ChartAxes';

// The perf charts' axes: each tick label one plain SVG text where visx's Text put a nested svg,
// a text and a tspan (and measured every word to wrap lines these labels never need).
function labels(html: string): { attrs: string; text: string }[] {
  return [
    ...html.matchAll(/<g class="visx-group visx-axis-tick"[^>]*>.*?<text([^>]*)>([^<]*)<\/text>/g),
  ].map((m) => ({ attrs: m[1], text: m[2] }));
}

describe('ChartAxes', () => {
  const render = () =>
    renderToStaticMarkup(
      <svg>
        <ChartAxes
          innerH={100}
          x={scaleLinear<number>({ domain: [0, 100], range: [0, 300] })}
          y={scaleLinear<number>({ domain: [0, 10], range: [100, 0] })}
          xFormat={(v) => `${v}s`}
          xTicks={3}
          yTickValues={[0, 5, 10]}
          size="small"
        />
      </svg>,
    );

  it('draws each tick label as one text, offset and anchored as before, with no wrapping markup', () => {
    const html = render();
    expect(html).not.toContain('<tspan');
    // one svg: the chart's own
    expect(html.match(/<svg/g)).toHaveLength(1);
    const all = labels(html);
    const x = all.filter((l) => l.text.endsWith('s'));
    const y = all.filter((l) => !l.text.endsWith('s'));
    expect(x.map((l) => l.text)).toEqual(['0s', '50s', '100s']);
    // the first label starts at its tick, the last ends at it, the rest are centred
    expect(x.map((l) => /text-anchor="(\w+)"/.exec(l.attrs)?.[1])).toEqual([
      'start',
      'middle',
      'end',
    ]);
    expect(y.map((l) => l.text)).toEqual(['0', '5', '10']);
    for (const label of y) {
      expect(label.attrs).toContain('dx="-3"');
      expect(label.attrs).toContain('dy="3"');
      expect(label.attrs).toContain('text-anchor="end"');
      expect(label.attrs).toContain('font-size="9"');
    }
  });
});
