import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOtlp } from '../../../src-main/core/formats/otlp/read-otlp';
import { SpanCollector, type RawSpan } from '../../../src-main/core/formats/otlp/import-spans';
import { ExportLineScanner } from '../../../src-main/core/formats/otlp/scan-export-line';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { OTLP, fixtureSource, readManifest } from '../../support/fixtures';

/** The JSON.parse path's reading of one line: the RawSpans it hands the collector. */
function viaJsonParse(line: string): RawSpan[] | 'not JSON' | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  const seen: RawSpan[] = [];
  const collector = new SpanCollector((raw) => seen.push(raw));
  return collector.importExport(parsed) ?? seen;
}

const scan = (line: string) => new ExportLineScanner().scan(Buffer.from(line, 'utf8'));

/** Scanned and JSON.parse'd readings agree; returns whether the scanner read the line. */
function agree(line: string): boolean {
  const scanned = scan(line);
  const reference = viaJsonParse(line);
  if (scanned === null) return false;
  // the scanner never accepts a line the JSON.parse path rejects or skips
  expect(Array.isArray(reference), line).toBe(true);
  expect(scanned, line).toEqual(reference);
  // toEqual treats -0 and 0 alike: compare the numbers' signs as well
  expect(JSON.stringify(scanned, signedZero), line).toBe(JSON.stringify(reference, signedZero));
  return true;
}

const signedZero = (_k: string, v: unknown) => (Object.is(v, -0) ? '-0' : v);

/** the OTLP fixtures the manifest lists (tests/fixtures/manifest.json), not a folder listing */
const OTLP_FIXTURES = readManifest()
  .inputs.filter((i) => i.file.startsWith('otlp/'))
  .map((i) => i.file.slice('otlp/'.length));

const fixtureLines = OTLP_FIXTURES.flatMap((n) =>
  readFileSync(resolve(OTLP, n), 'utf8').split('\n'),
);

const span = (fields: string) =>
  `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"scope":{"name":"s"},"spans":[{${fields}}]}]}]}`;
const base =
  '"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"n","startTimeUnixNano":"1544712660000000000","endTimeUnixNano":"1544712661000000000"';

describe('the byte scanner reads export lines as JSON.parse does', () => {
  it('every line of every fixture: same spans, or handed to JSON.parse', () => {
    let scanned = 0;
    for (const line of fixtureLines) if (agree(line)) scanned++;
    // the valid ASCII lines are read by the scanner (the test is not vacuous)
    expect(scanned).toBeGreaterThan(fixtureLines.length / 2);
  });

  it('reads the encodings producers write, exactly', () => {
    const lines = [
      span(base),
      span(
        `${base},"kind":"SPAN_KIND_SERVER","status":{"code":"STATUS_CODE_ERROR","message":"boom"}`,
      ),
      span(`${base},"kind":3,"status":{"code":2}`),
      span(`${base},"status":{"message":"","code":1}`),
      // snake_case, ids in base64, times as numbers beyond 2^53
      span(
        '"trace_id":"W47/95gDgQPSabYzgT/GDA==","span_id":"7uGbfsPBsXQ=","parent_span_id":"","name":"n","start_time_unix_nano":1544712660123456789,"end_time_unix_nano":1544712661000000001',
      ),
      // escapes in names, keys and values; a key named __proto__
      span(
        `${base},"attributes":[{"key":"a\\"b","value":{"stringValue":"line\\nbreak \\u00e9 \\ud83d\\ude00"}},{"key":"__proto__","value":{"intValue":"7"}}]`,
      ),
      // every scalar AnyValue; ints beyond 2^53 stay text; -0, exponents, doubles as text
      span(
        `${base},"attributes":[{"key":"i","value":{"intValue":"9007199254740993"}},{"key":"j","value":{"intValue":-0}},{"key":"k","value":{"int_value":12}},{"key":"d","value":{"doubleValue":1.5e-3}},{"key":"e","value":{"doubleValue":"2.5"}},{"key":"b","value":{"boolValue":false}},{"key":"y","value":{"bytesValue":"AAE="}},{"key":"z","value":{}},{"key":"n"}]`,
      ),
      // a repeated attribute key keeps its first position and its last value
      span(
        `${base},"attributes":[{"key":"a","value":{"intValue":1}},{"key":"b","value":{"intValue":2}},{"key":"a","value":{"intValue":3}}]`,
      ),
      // events (one without a time) and links; unknown fields of every type skipped
      span(
        `${base},"events":[{"timeUnixNano":"1544712660500000000","name":"exception","attributes":[{"key":"exception.stacktrace","value":{"stringValue":"Traceback"}}]},{"name":"no time"}],"links":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000001","attributes":[]}],"flags":256,"traceState":"","droppedAttributesCount":0,"x":[1,-2.5e+3,true,false,null,{"y":[]}]`,
      ),
      // whitespace everywhere JSON allows it, and a CR at the end
      ` { "resourceSpans" : [ { "scopeSpans" : [ { "spans" : [ { ${base.replace(/,/g, ' ,\t')} } ] } ] } ] } \r`,
      // no spans, empty lists, an empty export
      '{"resourceSpans":[]}',
      '{"resourceSpans":[{"scopeSpans":[{"scope":{},"spans":[]}]}],"other":1}',
      // the resource after its spans
      `{"resourceSpans":[{"scopeSpans":[{"spans":[{${base}}]}],"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"late"}}]}}]}`,
      // a start time that is not a number: the span is dropped, as JSON.parse's path drops it
      span('"traceId":"a","spanId":"b","startTimeUnixNano":"12x"'),
      span('"traceId":"a","spanId":"b","startTimeUnixNano":"123456789012345678901234567890"'),
    ];
    for (const line of lines) expect(agree(line), line).toBe(true);
  });

  it('a resource repeated from the last line is shared; a line cut inside it is handed over', () => {
    const scanner = new ExportLineScanner();
    const line = span(base);
    const first = scanner.scan(Buffer.from(line))![0].resource;
    expect(scanner.scan(Buffer.from(line))![0].resource).toBe(first);
    // shorter than the remembered resource's bytes: no read past the line, no throw
    expect(scanner.scan(Buffer.from(line.slice(0, 60)))).toBeNull();
    const other = span(base).replace('"svc"', '"svc2"');
    expect(scanner.scan(Buffer.from(other))![0].resource).toEqual({ 'service.name': 'svc2' });
  });

  it('attribute lists with the same bytes share one object; others do not', () => {
    const scanner = new ExportLineScanner();
    const withAttrs = (value: string) =>
      span(
        `${base},"attributes":[{"key":"bid","value":{"stringValue":"${value}"}},{"key":"n","value":{"intValue":"1"}}]`,
      );
    const a = scanner.scan(Buffer.from(withAttrs('b1')))![0].attrs;
    const b = scanner.scan(Buffer.from(withAttrs('b2')))![0].attrs;
    const c = scanner.scan(Buffer.from(withAttrs('b1')))![0].attrs;
    expect(a).toEqual({ bid: 'b1', n: 1 });
    expect(b).toEqual({ bid: 'b2', n: 1 });
    expect(c).toBe(a);
    expect(b).not.toBe(a);
  });

  it('hands to JSON.parse what it does not read itself', () => {
    const handedOver = [
      span(`${base},"name":"twice"`),
      span(`${base},"span_id":"both spellings"`),
      span(
        `${base},"attributes":[{"key":"a","value":{"arrayValue":{"values":[{"intValue":"1"}]}}}]`,
      ),
      span(`${base},"attributes":[{"key":"a","value":{"stringValue":"x","intValue":1}}]`),
      span(`${base},"attributes":[{"key":"é","value":{"stringValue":"x"}}]`),
      span(`${base},"status":null`),
      span(`${base},"kind":null`),
      '{"resourceLogs":[]}',
      '{"resourceSpans":[{"instrumentationLibrarySpans":[]}]}',
      '[]',
      '',
      // deeper than the scanner follows
      `{"resourceSpans":[],"x":${'['.repeat(100)}${']'.repeat(100)}}`,
    ];
    for (const line of handedOver) expect(scan(line), line).toBeNull();
  });

  it('never accepts text JSON.parse rejects', () => {
    const invalid = [
      span(`${base},`),
      span(`${base},"attributes":[{"key":"a","value":{"intValue":01}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"doubleValue":1.}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"doubleValue":.5}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"doubleValue":1e}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"doubleValue":+1}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"boolValue":tru}}]`),
      span(`${base},"attributes":[{"key":"a\tb","value":{"stringValue":"x"}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"stringValue":"bad \\x escape"}}]`),
      span(`${base},"attributes":[{"key":"a","value":{"stringValue":"cut \\u12"}}]`),
      span(`${base},"x":[1,]`),
      span(`${base},"x":{"a":1,}`),
      span(`${base},"x":{"a" 1}`),
      span(`${base},"x":nul`),
      span(`${base},"x":'single'`),
      span(base) + 'x',
      span(base) + '{}',
      span(base).slice(0, -1),
      span(base).slice(0, 60),
    ];
    for (const line of invalid) {
      expect(() => JSON.parse(line), line).toThrow();
      expect(scan(line), line).toBeNull();
    }
  });

  it('fuzz: a mutated fixture line is either read as JSON.parse reads it or handed over', () => {
    let seed = 12345;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const pieces = [
      '"',
      '\\',
      ',',
      ':',
      '{',
      '}',
      '[',
      ']',
      '0',
      '-',
      '.',
      'e',
      ' ',
      '\t',
      'n',
      '1',
      'a',
      '\u0001',
    ];
    const lines = fixtureLines.filter((l) => l.length > 0 && l.length < 4000);
    let accepted = 0;
    for (let round = 0; round < 3000; round++) {
      let line = lines[random(lines.length)];
      for (let edits = 1 + random(3); edits > 0; edits--) {
        const at = random(line.length + 1);
        const kind = random(3);
        if (kind === 0) line = line.slice(0, at) + line.slice(at + 1 + random(4));
        else if (kind === 1)
          line = line.slice(0, at) + pieces[random(pieces.length)] + line.slice(at);
        else line = line.slice(0, at) + pieces[random(pieces.length)] + line.slice(at + 1);
      }
      const scanned = scan(line);
      if (scanned === null) continue;
      accepted++;
      const reference = viaJsonParse(line);
      expect(Array.isArray(reference), line).toBe(true);
      expect(scanned, line).toEqual(reference);
    }
    // some mutations keep the line valid (an edit inside a string), and those are read
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('reading a file with the scanner gives the JSON.parse reading', () => {
  for (const name of OTLP_FIXTURES) {
    it(name, () => {
      const fast = readOtlp([fixtureSource(resolve(OTLP, name))]);
      const reference = readOtlp([fixtureSource(resolve(OTLP, name))], { jsonParseOnly: true });
      expect(fast).toEqual(reference);
    });
  }

  it('a file mixing scanned lines, handed-over lines and bad lines', () => {
    const text = [
      span(base),
      span(`${base.replace('"n"', '"é"')}`),
      'not json',
      span(`${base},"name":"twice"`),
      '{"resourceLogs":[]}',
      span(base.replace('eee19b7ec3c1b174', 'eee19b7ec3c1b175')),
    ].join('\n');
    const source = () => bytesSource('mixed.jsonl', new TextEncoder().encode(text));
    const fast = readOtlp([source()]);
    expect(fast).toEqual(readOtlp([source()], { jsonParseOnly: true }));
    expect(fast.spans).toBe(4);
    expect(fast.skippedLines.count).toBe(2);
  });
});
