import { bomLength } from '../json-lines/read-json-lines';

/**
 * Cheap, never throws: SGLang's FileRequestMetricsExporter writes `request_parameters` first
 * in every line (`{"request_parameters": "{\"rid\": ...`), so the file's first bytes say it
 * even when the first line (a whole prompt) is far longer than the head (a byte-order mark
 * before it, as a Windows editor saves one, is passed over).
 */
export function sniffRequestMetrics(head: Uint8Array): boolean {
  return firstKeyIsRequestParameters(head, bomLength(head));
}

const KEY = '"request_parameters"';

/** Whether the JSON object at `at` starts with the key `request_parameters` (spaces allowed). */
export function firstKeyIsRequestParameters(bytes: Uint8Array, at: number): boolean {
  let i = skipSpaces(bytes, at);
  if (bytes[i] !== 0x7b) return false; // {
  i = skipSpaces(bytes, i + 1);
  for (let k = 0; k < KEY.length; k++) if (bytes[i + k] !== KEY.charCodeAt(k)) return false;
  i = skipSpaces(bytes, i + KEY.length);
  return bytes[i] === 0x3a; // :
}

export function skipSpaces(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0d)) i++;
  return i;
}
