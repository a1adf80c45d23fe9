import { describe, expect, it } from 'vitest';
import { stableText, textHash } from '../../../src-main/core/model/text-hash';
import { newPyDict, type PyDict, type PyValue } from '../../../src-main/core/model/py-value';

// stableText is what a prompt is hashed by (compare pairs samples by it): its text must not
// depend on how it is made (JSON.stringify without a replacer first, with one for bigints).

function dict(entries: Record<string, PyValue>): PyDict {
  return Object.assign(newPyDict(), entries);
}

describe('stableText', () => {
  it('a string is itself; chat messages are their JSON', () => {
    expect(stableText('Question 0: compute 868 * 822.')).toBe('Question 0: compute 868 * 822.');
    const chat = [
      dict({ role: 'system', content: 'Be brief.' }),
      dict({ role: 'user', content: 'naïve: 2 + 2?', n: 3, w: 0.5, ok: true, none: null }),
    ];
    expect(stableText(chat)).toBe(
      '[{"role":"system","content":"Be brief."},' +
        '{"role":"user","content":"naïve: 2 + 2?","n":3,"w":0.5,"ok":true,"none":null}]',
    );
  });

  it('a bigint anywhere is written as a string of its digits', () => {
    const big = 2n ** 70n;
    const prompt = [dict({ role: 'user', content: 'x', seed: big, nested: [dict({ id: big })] })];
    expect(stableText(prompt)).toBe(
      `[{"role":"user","content":"x","seed":"${big}","nested":[{"id":"${big}"}]}]`,
    );
    // the same text, the same hash: the bigint's digits, as a string of them would give
    expect(textHash(stableText([big]))).toBe(textHash(stableText([String(big)])));
  });

  it('a value JSON cannot write (a cycle) is its String()', () => {
    const cyclic: PyValue[] = ['a'];
    cyclic.push(cyclic);
    expect(stableText(cyclic)).toBe(String(cyclic));
  });
});
