import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { FIXTURES, fixtureSource } from '../../support/fixtures';
import {
  readTemplates,
  samplesOpcodeMix,
  type SampleTemplates,
} from '../../bench/real-shaped-samples.mjs';
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';

// Issue 50: the bench's 100k-sample dump must cost what a dump slime writes costs, so its
// samples are the fixtures' (made by slime's own code) written again with new ids, times and
// token ids. What a sample costs follows from its opcodes: these tests hold the written dump to
// the fixture's mix and to its rows.

type OpcodeMix = ReturnType<typeof samplesOpcodeMix>;

const dir = mkdtempSync(join(tmpdir(), 'real-shaped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Opcodes per sample by what they cost a reader. A string's first write in a dump (BINUNICODE
 * then BINPUT) becomes a memo read in every later sample that has it: a 16-sample fixture writes
 * its keys once among 16 samples, a 100k dump once among 100k. So strings and memo reads count
 * as one kind, and memo writes (one per container or new string) are left out.
 */
function perSample({ samples, counts }: OpcodeMix): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const [op, n] of Object.entries(counts)) {
    if (op === 'BINPUT' || op === 'LONG_BINPUT') continue;
    const kind = ['BINGET', 'LONG_BINGET', 'BINUNICODE'].includes(op) ? 'string or memo read' : op;
    kinds.set(kind, (kinds.get(kind) ?? 0) + n / samples);
  }
  return kinds;
}

/** the mix of the samples after the first `skip` (the dump's first pass over its templates) */
function mixAfter(path: string, skip: number): OpcodeMix {
  const dump: SampleTemplates = readTemplates(path);
  return samplesOpcodeMix({ ...dump, samples: dump.samples.slice(skip) });
}

describe.each(['rollout_small.pt', 'rollout_agentic.pt', 'sample_objects.pt'])(
  'a dump written from the samples of %s',
  (name) => {
    const fixture = join(FIXTURES, 'slime', name);
    const templates = readTemplates(fixture).samples.length;
    const path = join(dir, name);
    // one pass that writes the templates as they are, then four copies of each
    const written = writeSlimeDump(path, Infinity, 0, templates * 5, { realSamples: [fixture] });

    it('has the fixture’s opcodes per sample, each kind within 5%', () => {
      expect(written).toBe(templates * 5);
      const want = perSample(samplesOpcodeMix(readTemplates(fixture)));
      const got = perSample(mixAfter(path, templates));
      const total = [...want.values()].reduce((a, b) => a + b, 0);
      for (const [kind, perFixtureSample] of want) {
        // kinds of at least 1% of a sample's opcodes
        if (perFixtureSample / total < 0.01) continue;
        expect(got.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(perFixtureSample * 0.95);
        expect(got.get(kind) ?? 0, kind).toBeLessThanOrEqual(perFixtureSample * 1.05);
      }
    });

    it('opens as five times the fixture’s samples, spans and events, each sample its own row', () => {
      const original = openTraceFile([fixtureSource(fixture)]).summary;
      const copy = openTraceFile([fixtureSource(path)]).summary;
      expect(copy.samples).toBe(original.samples * 5);
      expect(copy.rows).toBe(original.rows * 5);
      expect(copy.spans).toBe(original.spans * 5);
      expect(copy.events).toBe(original.events * 5);
    });
  },
);
