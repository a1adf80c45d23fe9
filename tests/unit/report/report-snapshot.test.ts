import { describe, expect, it } from 'vitest';
import { inflateSync } from 'fflate';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ingest } from '../../../src-main/ingest/open-sources';
import { fileCalls } from '../../../src-main/ingest/file-calls';
import {
  buildReportSnapshot,
  type ReportFile,
} from '../../../src-main/core/report/build-report-snapshot';
import { encodeReport } from '../../../src-main/report/encode-report';
import { decodeAnswer } from '../../../src-main/core/api/typed-json';
import { jsonListAt, jsonListLength } from '../../../src-main/core/api/json-list';
import type { FileDetails, ReportSnapshot } from '../../../src-main/core/api/report-snapshot';
import { isContentKey, redactValue } from '../../../src-main/core/report/redact-content';
import { SLIME } from '../../support/fixtures';
import { sampleContentStrings } from '../../support/sample-content-strings';

function reportFile(name: string): ReportFile {
  const path = resolve(SLIME, name);
  const trace = ingest({ sources: [{ kind: 'path', path }] });
  const calls = fileCalls(trace, [{ kind: 'path', path }]);
  return { summary: { ...trace.summary, fileId: path, path }, calls };
}

/** Every prompt or response string of a file's samples: what must not leak. */
const contentStrings = (file: ReportFile) => sampleContentStrings(file.summary.path!);

/** A report's blocks as made (encodeReport), inflated: their text, and decoded. */
function made(withContent: boolean, files: ReportFile[]) {
  const encoded = encodeReport(buildReportSnapshot(files, { withContent, compare: false, madeAt }));
  const blocks = [encoded.snapshot, ...encoded.details];
  const frames = blocks.map((b) => inflateSync(b.bytes));
  const decode = (frame: Uint8Array, i: number) =>
    decodeAnswer(blocks[i].contentType, frame.slice().buffer);
  return {
    text: frames.map((f) => new TextDecoder().decode(f)).join('\n'),
    snapshot: decode(frames[0], 0) as ReportSnapshot,
    details: frames.slice(1).map((f, i) => decode(f, i + 1) as FileDetails),
  };
}
const madeAt = new Date('2026-01-01T00:00:00Z');

describe('report snapshot', () => {
  const a = reportFile('rollout_7.pt');
  const b = reportFile('rollout_8.pt');
  const prompts = contentStrings(a);

  it('leaves out every prompt and response unless asked, and says so', () => {
    expect(prompts.length).toBeGreaterThan(10);
    const plain = made(false, [a]);
    expect(plain.snapshot.withContent).toBe(false);
    expect(prompts.filter((p) => plain.text.includes(JSON.stringify(p).slice(1, -1)))).toEqual([]);
    // the same file with content: the prompts are there (the check above can fail)
    const full = made(true, [a]).text;
    expect(prompts.filter((p) => !full.includes(JSON.stringify(p).slice(1, -1)))).toEqual([]);
  });

  it("holds the app's own answers: rows, orders, spans, perf and groups as the calls give them", () => {
    const { snapshot, details } = made(false, [a]);
    const [file] = snapshot.files;
    expect(file.summary.path).toBeNull();
    const rows = Array.from({ length: jsonListLength(file.rows) }, (_, i) =>
      jsonListAt(file.rows, i),
    );
    expect(rows.length).toBe(a.summary.rows);
    // packed and parsed back, each row is the call's own answer (content left out: labels)
    const asked = a.calls.getRows(Array.from(file.rowIds));
    expect(rows.map((r) => r.items)).toEqual(asked.map((r) => r.items));
    expect(rows.map((r) => r.rowId)).toEqual(Array.from(file.rowIds));
    expect(Array.from(file.orders.duration!)).toEqual(
      Array.from(a.calls.queryRows({ sort: 'duration' }).rowIds),
    );
    const position = rows.findIndex((r) => r.items.some((i) => i.kind === 'span'));
    const row = rows[position];
    const at = row.items.findIndex((i) => i.kind === 'span');
    expect(jsonListAt(details[0].spans, position)[at]?.name).toBe(
      a.calls.getSpan(row.rowId, row.items[at].index).name,
    );
    expect(jsonListAt(details[0].samples!, position).fields.status).toBe(
      a.calls.getSample(row.rowId).fields.status,
    );
    expect(file.perf.perf).toEqual(a.calls.getPerf().perf);
    const groups = a.calls.getPerfGroups({ sort: 'wall', filter: 'all', offset: 0, limit: 1000 });
    const order = file.groups!.orders['wall\nall'];
    expect(Array.from(order).map((i) => file.groups!.all[i].groupIndex)).toEqual(
      groups.groups.map((g) => g.groupIndex),
    );
  });

  it('a compare pair holds the compare both ways round', () => {
    const { snapshot } = buildReportSnapshot([a, b], { withContent: false, compare: true, madeAt });
    const results = snapshot.compare!.results;
    expect(Object.keys(results).sort()).toEqual(['file-0\nfile-1', 'file-1\nfile-0']);
    expect(results['file-0\nfile-1'].answer.length).toBeGreaterThan(0);
    expect(results['file-0\nfile-1'].a).not.toBe(results['file-1\nfile-0'].a);
  });
});

describe('redactValue', () => {
  it('keeps figures and short facts, leaves out content by key and long free text', () => {
    expect(redactValue('completed', 'status')).toBe('completed');
    expect(redactValue(512, 'response_length')).toBe(512);
    expect(redactValue('hello there', 'prompt')).toBe('[left out: 11 characters]');
    expect(redactValue([{ role: 'user', content: 'hi' }], 'prompt')).toBe('[left out]');
    expect(redactValue({ note: 'x'.repeat(100), ok: true }, 'metadata')).toEqual({
      note: '[left out: 100 characters]',
      ok: true,
    });
    expect(redactValue({ arguments: '{"q": 1}' }, 'tool')).toEqual({
      arguments: '[left out: 8 characters]',
    });
    // a token list kept only as its length says no content
    expect(redactValue({ length: 40, lazy: true }, 'response_tokens')).toEqual({
      length: 40,
      lazy: true,
    });
  });
});

describe('isContentKey', () => {
  it('reads a key as words: what was written is content, what is about it is not', () => {
    for (const key of [
      'prompt',
      'responses',
      'label',
      'gen_ai.prompt.0.content',
      'tool_calls',
      'userPrompt',
      'input_ids',
      'queries',
      'llm.input_messages',
    ])
      expect(isContentKey(key), key).toBe(true);
    for (const key of [
      'gen_ai.response.model',
      'thread_label',
      'finish_reason',
      'response_id',
      'context',
      'filesystem',
      'gen_ai.completion.0.role',
      'status',
    ])
      expect(isContentKey(key), key).toBe(false);
    // a thread's label stays in a report made without content; a prompt under `gen_ai` does not
    expect(redactValue('Scheduler', 'thread_label')).toBe('Scheduler');
    expect(redactValue('Qwen3-8B', 'gen_ai.response.model')).toBe('Qwen3-8B');
    expect(redactValue('hi', 'gen_ai.prompt.0.content')).toBe('[left out: 2 characters]');
  });
});

describe('report command', () => {
  const CLI = resolve(__dirname, '../../../out/main/cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'report-cli-'));
  const make = (out: string, ...args: string[]) => {
    const done = spawnSync(process.execPath, [CLI, 'report', ...args, '-o', out], {
      encoding: 'utf8',
    });
    expect(done.stderr).toBe('');
    expect(done.status).toBe(0);
    return readFileSync(out, 'utf8');
  };
  /** every data block of the page, inflated, as text */
  const embedded = (html: string) => {
    const block =
      /<script type="application\/octet-stream" id="[^"]+" data-type="[^"]+">([^<]*)<\/script>/g;
    const blocks = [...html.matchAll(block)];
    expect(blocks.length).toBeGreaterThan(1);
    return blocks
      .map((b) => new TextDecoder().decode(inflateSync(Buffer.from(b[1], 'base64'))))
      .join('\n');
  };
  const prompts = contentStrings(reportFile('rollout_7.pt'));

  it('writes no prompt or response without --with-content: not in the file, not inflated', () => {
    const html = make(join(dir, 'plain.html'), resolve(SLIME, 'rollout_7.pt'));
    expect(prompts.filter((p) => html.includes(p) || html.includes(JSON.stringify(p)))).toEqual([]);
    expect(prompts.filter((p) => embedded(html).includes(JSON.stringify(p).slice(1, -1)))).toEqual(
      [],
    );
    const full = embedded(
      make(join(dir, 'full.html'), resolve(SLIME, 'rollout_7.pt'), '--with-content'),
    );
    expect(prompts.filter((p) => !full.includes(JSON.stringify(p).slice(1, -1)))).toEqual([]);
  });

  it('allows its one script by hash, and nothing from the network', () => {
    const html = make(join(dir, 'csp.html'), resolve(SLIME, 'rollout_7.pt'));
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[^']+'; style-src 'unsafe-inline'; img-src data:;/,
    );
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0], 'utf8').digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
  });
});
