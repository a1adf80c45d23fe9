import { ingest } from '../../src-main/ingest/open-sources';
import { fileCalls } from '../../src-main/ingest/file-calls';
import type { AttrValue } from '../../src-main/core/model/row';

/**
 * Every string a dump's samples say under a prompt or response key, at any depth, 12 characters
 * or more: what a report made without content must not hold (report tests search it for them).
 */
export function sampleContentStrings(path: string): string[] {
  const trace = ingest({ sources: [{ kind: 'path', path }] });
  const calls = fileCalls(trace, [{ kind: 'path', path }]);
  const found = new Set<string>();
  const walk = (value: AttrValue, inContent: boolean) => {
    if (typeof value === 'string') {
      if (inContent && value.length >= 12) found.add(value);
    } else if (Array.isArray(value)) value.forEach((v) => walk(v, inContent));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, inContent || /prompt|response/.test(k));
  };
  for (let row = 0; row < trace.summary.samples; row++) walk(calls.getSample(row).fields, false);
  return [...found];
}
