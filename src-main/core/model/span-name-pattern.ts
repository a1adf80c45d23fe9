/**
 * A span name with the ids in it replaced by `*`: SGLang names each request's root
 * `decode Req 1a2b3c4d`, so a file of 100k requests has 100k distinct names but one pattern.
 * An id is a word of 6 or more hex digits (either case, hyphens inside: a UUID) holding at least
 * one digit, or a number of 4 or more digits (step numbers like `step 3` or `step 123` stay).
 * A word ends at anything but a letter, digit or `_` (`req_1a2b3c4d` is one word, kept).
 *
 * One folding for the whole app: the perf view's per-pattern figures (core/rows) and the span-name
 * menu (the renderer's toolbar) both call this, so a menu entry is a perf line's name.
 */
export function spanNamePattern(name: string): string {
  return name.replace(/\b(?=[0-9a-fA-F-]*\d)[0-9a-fA-F][0-9a-fA-F-]{5,}\b|\b\d{4,}\b/g, '*');
}

/**
 * The span-name filter's pattern (a name spanNamePattern folded, e.g. `decode Req *`):
 * each `*` stands for any non-empty text, the rest for itself. One rule for the store's filter
 * and a shared report's page, which filters the rows it carries.
 */
export function spanNamePatternRegExp(name: string): RegExp {
  return new RegExp(
    `^${name
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  );
}
