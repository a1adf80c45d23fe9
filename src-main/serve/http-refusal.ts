/** A request the server refuses: a status and a code the client can show. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function tooLarge(limit: number, what: string): HttpRefusal {
  const MiB = 1024 * 1024;
  const size = limit % MiB === 0 ? `${limit / MiB} MiB (${limit} bytes)` : `${limit} bytes`;
  return new HttpRefusal(
    413,
    'serve/too-large',
    `the ${what} is larger than ${size}: open large files by path (serve FILE)`,
  );
}

export function busy(): HttpRefusal {
  return new HttpRefusal(
    503,
    'serve/busy',
    'another upload is being received or waits to be opened; try again',
  );
}
