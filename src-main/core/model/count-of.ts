/** "1 line", "2 lines": a count with its noun, for messages a user reads. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
