import type { PyValue } from '../../model/py-value';
import { parsePythonJson } from './python-json';

const decoder = new TextDecoder();

/**
 * A record's whole line as details show it: `request_parameters` parsed from its JSON string
 * into the request it was (rid, input_ids, sampling_params, ...). A request_parameters that is
 * not JSON stays the text it is, beside a coded error naming the file and line.
 */
export function recordDetails(line: Uint8Array, fileName: string, lineNo: number): PyValue {
  const record = parsePythonJson(decoder.decode(line)) as Record<string, PyValue>;
  const params = record.request_parameters;
  if (typeof params === 'string') {
    try {
      record.request_parameters = parsePythonJson(params) as PyValue;
    } catch (error) {
      record.request_parameters_error = `request-metrics/bad-request-parameters: ${fileName} line ${lineNo}: request_parameters is not JSON (${(error as Error).message})`;
    }
  }
  return record;
}
