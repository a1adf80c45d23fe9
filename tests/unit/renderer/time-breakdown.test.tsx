import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CompareResult } from '../../../src-main/core/api/trace-api';
import { TimeBreakdown } from '../../../src-renderer/compare/TimeBreakdown';

// A renderer component outside e2e: "where the time went" rendered to markup from a result
// made by hand, so each cell's text is known exactly.
const result = {
  spanTotals: [
    { name: 'sglang_generate', aSec: 2, bSec: 3, aCount: 4, bCount: 5 },
    { name: 'reward_model', aSec: 0.5, bSec: 0.25, aCount: 2, bCount: 2 },
    { name: 'tool_call', aSec: 90, bSec: 90, aCount: 1, bCount: 1 },
  ],
} as CompareResult;

function rows(html: string): { span: string; verdict: string; cells: string[] }[] {
  return [...html.matchAll(/<tr data-span="([^"]+)" class="verdict-(\w+)">(.*?)<\/tr>/g)].map(
    (m) => ({
      span: m[1],
      verdict: m[2],
      cells: [...m[3].matchAll(/<td class="(?:metric|num|num change)">(.*?)<\/td>/g)].map((c) =>
        c[1].replace(/<!-- -->/g, ''),
      ),
    }),
  );
}

describe('TimeBreakdown', () => {
  it('one row per span name in the given order: totals, change, counts; grown is worse', () => {
    const html = renderToStaticMarkup(<TimeBreakdown result={result} />);
    expect(rows(html)).toEqual([
      {
        span: 'sglang_generate',
        verdict: 'worse',
        cells: ['sglang_generate', '2.00 s', '3.00 s', '1.00 s (+50.0%)', '4 / 5'],
      },
      {
        span: 'reward_model',
        verdict: 'better',
        cells: ['reward_model', '500.0 ms', '250.0 ms', '-250.0 ms (-50.0%)', '2 / 2'],
      },
      {
        span: 'tool_call',
        verdict: 'same',
        cells: ['tool_call', '1.5 min', '1.5 min', '0.0 ms (0.0%)', '1 / 1'],
      },
    ]);
  });

  it('bars are shares of the largest total', () => {
    const html = renderToStaticMarkup(<TimeBreakdown result={result} />);
    const widths = [...html.matchAll(/pair-bar (a|b)" style="width:([\d.]+)%/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]);
    expect(widths.slice(0, 2)).toEqual([
      ['a', (2 / 90) * 100],
      ['b', (3 / 90) * 100],
    ]);
    expect(widths.slice(4)).toEqual([
      ['a', 100],
      ['b', 100],
    ]);
  });
});
