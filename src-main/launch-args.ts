import { resolve } from 'node:path';

export interface LaunchArgs {
  files: string[];
  compare: boolean;
  serve: boolean;
}

/** The files and flags of a launch; Chromium's own switches (--foo=bar) are ignored. */
export function parseLaunchArgs(argv: string[]): LaunchArgs {
  const files: string[] = [];
  let compare = false;
  let serve = false;
  for (const arg of argv) {
    if (arg === '--compare') compare = true;
    else if (arg === '--serve') serve = true;
    else if (!arg.startsWith('-') && arg !== '.') files.push(resolve(arg));
  }
  return { files, compare, serve };
}
