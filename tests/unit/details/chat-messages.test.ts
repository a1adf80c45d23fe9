import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { sampleToDetails } from '../../../src-main/core/open/sample-details';
import {
  imageSource,
  parseContent,
  parsePrompt,
} from '../../../src-renderer/details/chat-messages';
import { SLIME, fixtureSource } from '../../support/fixtures';

// the smallest valid PNG (1x1, transparent) and JPEG headers, as a data loader would send them
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('prompts of real dumps', () => {
  it('reads rollout_agentic prompts as chat messages with their roles and text', () => {
    const source = fixtureSource(resolve(SLIME, 'rollout_agentic.pt'));
    const opened = openTraceFile([source]);
    const all = Array.from({ length: opened.samples.count }, (_, i) =>
      sampleToDetails(opened.samples.read(i, (use) => use(source))!),
    );
    const fields = all.find((f) => Array.isArray(f.prompt))!;
    expect(fields).toBeDefined();
    const raw = fields.prompt as { role: string; content: string }[];
    const parsed = parsePrompt(fields.prompt);
    expect(parsed.kind).toBe('chat');
    if (parsed.kind !== 'chat') return;
    expect(parsed.messages.map((m) => m.role)).toEqual(raw.map((m) => m.role));
    expect(parsed.messages.map((m) => m.parts)).toEqual(
      raw.map((m) => [{ kind: 'text', text: m.content }]),
    );
  });

  it('reads a string prompt as text', () => {
    const source = fixtureSource(resolve(SLIME, 'rollout_small.pt'));
    const opened = openTraceFile([source]);
    const prompt = sampleToDetails(opened.samples.read(0, (use) => use(source))!).prompt;
    expect(typeof prompt).toBe('string');
    expect(parsePrompt(prompt)).toEqual({ kind: 'text', text: prompt });
    expect(parsePrompt('')).toEqual({ kind: 'empty' });
    expect(parsePrompt(null)).toEqual({ kind: 'empty' });
  });
});

describe('chat message shapes (OpenAI / Qwen-VL style, as slime passes them through)', () => {
  it('splits content parts into text and inline images', () => {
    const parts = parseContent([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } },
      { type: 'image', image: PNG_1X1 },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      { type: 'audio', audio: 'x' },
    ]);
    expect(parts).toEqual([
      { kind: 'text', text: 'What is in this picture?' },
      { kind: 'image', src: `data:image/png;base64,${PNG_1X1}` },
      { kind: 'image', src: `data:image/png;base64,${PNG_1X1}` },
      { kind: 'image-ref', ref: 'https://example.com/cat.png' },
      { kind: 'other', json: '{"type":"audio","audio":"x"}' },
    ]);
  });

  it('turns bare base64 into a data URL only for known image signatures', () => {
    expect(imageSource('/9j/4AAQSkZJRgABAQAAAQABAAD')).toBeNull(); // not a multiple of 4
    expect(imageSource('/9j/4AAQSkZJRgABAQAAAQABAAA=')).toBe(
      'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAA=',
    );
    expect(imageSource('UklGRhAAAABXRUJQVlA4IA==')).toBe(
      'data:image/webp;base64,UklGRhAAAABXRUJQVlA4IA==',
    );
    expect(imageSource('aGVsbG8gd29ybGQgaGVsbG8=')).toBeNull(); // "hello world hello": not an image
    expect(imageSource('aGVsbG8gd29ybGQgaGVsbG8=', 'image/png')).toBe(
      'data:image/png;base64,aGVsbG8gd29ybGQgaGVsbG8=',
    );
    expect(imageSource('/tmp/cat.png')).toBeNull();
    expect(imageSource('data:text/html;base64,PGgxPg==')).toBeNull();
  });

  it('reads tool calls with their arguments and tool results with their call id', () => {
    const parsed = parsePrompt([
      { role: 'user', content: 'run ls' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"ls"}' } },
          { id: 'call_2', type: 'function', function: { name: 'python', arguments: 'not json' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'bash', content: 'a.txt\n' },
    ]);
    expect(parsed.kind).toBe('chat');
    if (parsed.kind !== 'chat') return;
    const [user, assistant, tool] = parsed.messages;
    expect(user.parts).toEqual([{ kind: 'text', text: 'run ls' }]);
    expect(assistant.parts).toEqual([]);
    expect(assistant.toolCalls).toEqual([
      { id: 'call_1', name: 'bash', args: '{\n  "cmd": "ls"\n}' },
      { id: 'call_2', name: 'python', args: 'not json' },
    ]);
    expect(tool).toMatchObject({ role: 'tool', toolCallId: 'call_1', name: 'bash' });
  });

  it('keeps anything else as JSON', () => {
    expect(parsePrompt({ a: 1 })).toEqual({ kind: 'other', json: '{\n  "a": 1\n}' });
    expect(parsePrompt([1, 2])).toEqual({ kind: 'other', json: '[\n  1,\n  2\n]' });
  });
});
