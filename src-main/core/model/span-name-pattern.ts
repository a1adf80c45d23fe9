/**
 * The span-name filter's pattern (the menu groups `decode Req 1a2b3c4d`, ... as `decode Req *`):
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
