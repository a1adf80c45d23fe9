import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

const failure = (open: () => unknown): FormatError => {
  try {
    open();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('opened');
};

describe('a file no format reads', () => {
  it('valid JSON that is no trace says what it holds, with no byte to point at', () => {
    const path = resolve(FIXTURES, 'run/run_plan.json');
    const keys = Object.keys(JSON.parse(readFileSync(path, 'utf8')) as object);
    const error = failure(() => openTraceFile([fixtureSource(path)]));
    expect(error.code).toBe('open/unknown-format');
    expect(error.offset).toBeUndefined();
    expect(error.message).not.toContain('at byte');
    expect(error.message).toMatch(
      new RegExp(
        `^valid JSON \\(an object with keys ${keys.slice(0, 5).join(', ')}.*\\), but not `,
      ),
    );
  });

  it('a JSON list, and JSON after blank lines, say so too', () => {
    const list = failure(() =>
      openTraceFile([bytesSource('l.json', new TextEncoder().encode('\n\n  [1, 2, 3]\n'))]),
    );
    expect(list.message).toMatch(/^valid JSON \(a list of 3\), but not /);
    expect(list.offset).toBeUndefined();
  });

  it('JSON too long to parse while sniffing is "a JSON document"', () => {
    const big = `{"values": [${Array.from({ length: 30000 }, (_, i) => i).join(',')}]}`;
    const error = failure(() =>
      openTraceFile([bytesSource('big.json', new TextEncoder().encode(big))]),
    );
    expect(error.message).toMatch(/^a JSON document, but not /);
    expect(error.offset).toBeUndefined();
  });

  it('other bytes keep offset 0 (the HTML slime’s viewer writes)', () => {
    const error = failure(() =>
      openTraceFile([fixtureSource(resolve(FIXTURES, 'slime/slime_viewer_example.html'))]),
    );
    expect(error.code).toBe('open/unknown-format');
    expect(error.offset).toBe(0);
    expect(error.message).toMatch(/^not .* \(at byte 0\)$/);
  });
});
