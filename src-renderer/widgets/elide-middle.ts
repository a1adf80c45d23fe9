/**
 * A name cut in its middle to at most `max` characters: the start and the end (the suffix
 * that tells `rollout_0007.pt` from `rollout_0008.pt`) stay, so a long name never reads "bi…".
 */
export function elideMiddle(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = Math.max(2, max - 1);
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}

/** A share of bytes read as a whole percent, never 100% before the last byte. */
export function percentText(done: number, total: number): string {
  if (total <= 0) return '';
  const percent = Math.floor((Math.min(done, total) / total) * 100);
  return `${done < total ? Math.min(percent, 99) : 100}%`;
}
