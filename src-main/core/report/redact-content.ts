/**
 * Privacy by default for a shared report (issue 47): prompts, responses, labels and tool
 * arguments are left out unless the user asks for them. Two nets, because a dump's fields are
 * not a fixed list: a value under a key that names content (prompt, response, label, messages,
 * arguments, ...) is left out whatever its shape, and any other string longer than a short
 * label is left out too (free text hides in metadata under names no list foresees). Numbers,
 * booleans and short strings (status, source, finish reason, ids) stay: the figures need them.
 */
import type { AttrValue, Attrs } from '../model/row';

/**
 * Words that name what people wrote or the model said. A key is read as words (split on `.`,
 * `_`, `-` and camelCase; a plural's `s` dropped) rather than searched for substrings, so
 * `context` or `filesystem` are not taken for `text` or `system`.
 */
const CONTENT_WORDS = new Set([
  'prompt',
  'response',
  'label',
  'message',
  'content',
  'argument',
  'arg',
  'completion',
  'text',
  'input',
  'output',
  'query',
  'answer',
  'instruction',
  'system',
]);

/**
 * Words that, in the key's last segment, say the value is about the content, not the content:
 * `gen_ai.response.model`, `thread_label`, `finish_reason`, `response_id`. Exact words only:
 * `input_ids` (the prompt as token ids) stays content.
 */
const ABOUT_WORDS = new Set([
  'model',
  'thread',
  'reason',
  'type',
  'kind',
  'rank',
  'status',
  'version',
  'length',
  'len',
  'count',
  'num',
  'time',
  'ts',
  'ms',
  'id',
  'role',
  'format',
]);

function words(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_\-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function singular(word: string): string {
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.replace(/s$/, '');
}

/** Whether values under `key` are content (see CONTENT_WORDS and ABOUT_WORDS). */
export function isContentKey(key: string): boolean {
  const segments = key.split('.').filter(Boolean);
  const leaf = segments.length > 0 ? words(segments[segments.length - 1]) : [];
  if (leaf.some((word) => ABOUT_WORDS.has(word))) return false;
  return segments.some(
    (segment) =>
      /tool_?calls?/i.test(segment) ||
      words(segment).some((word) => CONTENT_WORDS.has(singular(word))),
  );
}

/** The longest string kept outside content keys: ids, statuses, finish reasons fit. */
export const KEPT_TEXT_MAX = 64;

/** What a left-out value becomes: says that something was there, never what. */
export function leftOut(value: AttrValue): AttrValue {
  if (value === null) return null;
  if (typeof value === 'string') return `[left out: ${value.length} characters]`;
  if (typeof value === 'number' || typeof value === 'boolean') return '[left out]';
  return '[left out]';
}

/** `value` with content left out (see the module's comment); the input is not changed. */
export function redactValue(value: AttrValue, key = ''): AttrValue {
  if (value === null || typeof value === 'number' || typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return isContentKey(key) ? leftOut(value) : value;
  if (typeof value === 'string') {
    return isContentKey(key) || value.length > KEPT_TEXT_MAX ? leftOut(value) : value;
  }
  if (isContentKey(key) && !isCountOnly(value)) return leftOut(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, key));
  return redactAttrs(value);
}

export function redactAttrs(attrs: Attrs): Attrs {
  const out: Attrs = {};
  for (const [key, value] of Object.entries(attrs)) out[key] = redactValue(value, key);
  return out;
}

/**
 * A token list kept only as its length (`{length, lazy: true}`, sample-details.ts) says no
 * content: `response_length`-like facts stay.
 */
function isCountOnly(value: AttrValue): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every((v) => typeof v === 'number' || typeof v === 'boolean');
}
