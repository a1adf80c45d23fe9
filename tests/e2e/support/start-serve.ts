import { spawn, type ChildProcess } from 'node:child_process';

export interface StartedServe {
  server: ChildProcess;
  /** what serve mode wrote to stderr so far (files it could not open, say) */
  stderr: () => string;
}

/**
 * Serve mode as a user starts it (`trace-explorer serve --port --token PATH...`), once it says
 * where it serves; it fails with serve's stderr if serve exits first.
 */
export async function startServe(
  cli: string,
  port: number,
  token: string,
  paths: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<StartedServe> {
  let stderr = '';
  const server = spawn(
    process.execPath,
    [cli, 'serve', '--port', String(port), '--token', token, ...paths],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((ready, fail) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('serving on')) ready();
    });
    server.on('exit', () => fail(new Error(`serve exited: ${stderr}`)));
  });
  return { server, stderr: () => stderr };
}
