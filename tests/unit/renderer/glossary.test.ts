import { describe, expect, it } from 'vitest';
import { GLOSSARY } from '../../../src-renderer/frame/glossary';
import { WALL_TIME_CATEGORIES } from '../../../src-main/core/model/rollout-figures';
import { TIMING_PARTS } from '../../../src-renderer/details/sample-timing';

const words = new Set(GLOSSARY.map(([word]) => word));

describe('the glossary (`?`)', () => {
  it('defines every category the perf and compare answers print', () => {
    expect(WALL_TIME_CATEGORIES.filter((c) => !words.has(c))).toEqual([]);
  });

  it('defines every part of a sample’s timing split', () => {
    expect(TIMING_PARTS.filter((p) => !words.has(p))).toEqual([]);
  });

  it('defines the words the answers’ sentences use (issue 48)', () => {
    const used = [
      'own window',
      'kept open',
      'stale',
      'aborted',
      'unfinished',
      'retried',
      'resumed',
    ];
    expect(used.filter((w) => !words.has(w))).toEqual([]);
  });

  it('says each word once, with a sentence', () => {
    expect(words.size).toBe(GLOSSARY.length);
    for (const [word, meaning] of GLOSSARY) expect(meaning, word).toMatch(/^[A-Z].{20,}\.$/);
  });
});
