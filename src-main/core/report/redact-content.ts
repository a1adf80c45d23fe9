/**
 * Privacy by default for a shared report (issue 47): prompts, responses, labels and tool
 * arguments are left out unless the user asks for them. Two nets, because a dump's fields are
 * not a fixed list: a value under a key that names content (prompt, response, label, messages,
 * arguments, ...) is left out whatever its shape, and any other string longer than a short
 * label is left out too (free text hides in metadata under names no list foresees). Numbers,
 * booleans and short strings (status, source, finish reason, ids) stay: the figures need them.
 */
import type { AttrValue, Attrs } from '../model/row';

/** Keys whose values are what people wrote or the model said, in any nesting. */
const CONTENT_KEY =
  /prompt|response|label|message|content|argument|completion|text|input|output|tool_call|query|answer|instruction|system/i;

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
  if (typeof value === 'boolean') return CONTENT_KEY.test(key) ? leftOut(value) : value;
  if (typeof value === 'string') {
    return CONTENT_KEY.test(key) || value.length > KEPT_TEXT_MAX ? leftOut(value) : value;
  }
  if (CONTENT_KEY.test(key) && !isCountOnly(value)) return leftOut(value);
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
