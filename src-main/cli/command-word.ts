import { existsSync } from 'node:fs';

/** The CLI's commands; `trace-explorer FILE...` is `serve`. */
export const COMMANDS = [
  'serve',
  'summary',
  'rows',
  'perf',
  'export',
  'trends',
  'compare',
  'sql',
  'report',
] as const;
export type Command = (typeof COMMANDS)[number];
export const isCommand = (word: string): word is Command =>
  (COMMANDS as readonly string[]).includes(word);

/**
 * Whether this command line serves the UI (`serve ...`, or a path first): told before the
 * commands' code is loaded, so that serve mode starts a file's worker first (cli.ts).
 */
export function servesUi(argv: readonly string[]): boolean {
  const first = argv[0];
  if (first === undefined || argv.includes('--help') || argv.includes('-h')) return false;
  return first === 'serve' || (!isCommand(first) && !first.startsWith('-') && existsSync(first));
}
