import type { TraceApi } from '../core/api/trace-api';
import { validateCall } from './validate-call';

/** Validates a transport call and runs it on the service: the whole of a transport's logic. */
export async function dispatchCall(
  api: TraceApi,
  method: unknown,
  args: unknown,
): Promise<unknown> {
  const call = validateCall(method, args);
  const fn = api[call.method] as (...a: unknown[]) => Promise<unknown>;
  return fn.apply(api, call.args);
}
