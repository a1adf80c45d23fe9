import { DictRecord, type DictRecords } from '../formats/pickle/dict-records';
import { isDict, type PyValue } from '../model/py-value';

const TYPE = 0;
const NAME = 1;
const TS = 2;
const SPAN_ID = 3;
const PARENT = 4;
const ATTEMPT = 5;
const ATTRS = 6;

/**
 * A slime trace event read as a record (dict-records.ts): the fields a row's walk and the perf
 * keys read (TRACE_MODEL section 3), of one shape, so that the walk reads each by its place,
 * not by name in a dict of its own shape. The event's other keys (trace_id, sample_id,
 * group_id: the trace's own) are dropped; a sample's details are read again from the file.
 */
export class TraceEventRecord extends DictRecord {
  type: PyValue | undefined = undefined;
  name: PyValue | undefined = undefined;
  ts: PyValue | undefined = undefined;
  span_id: PyValue | undefined = undefined;
  parent_span_id: PyValue | undefined = undefined;
  attempt: PyValue | undefined = undefined;
  attrs: PyValue | undefined = undefined;
  /** whether the dict had an `attempt` key (its value may be None) */
  hasAttempt = false;

  field(key: string): number {
    switch (key) {
      case 'type':
        return TYPE;
      case 'name':
        return NAME;
      case 'ts':
        return TS;
      case 'span_id':
        return SPAN_ID;
      case 'parent_span_id':
        return PARENT;
      case 'attempt':
        return ATTEMPT;
      case 'attrs':
        return ATTRS;
      default:
        return -1;
    }
  }

  setField(field: number, value: PyValue): void {
    switch (field) {
      case TYPE:
        this.type = value;
        break;
      case NAME:
        this.name = value;
        break;
      case TS:
        this.ts = value;
        break;
      case SPAN_ID:
        this.span_id = value;
        break;
      case PARENT:
        this.parent_span_id = value;
        break;
      case ATTEMPT:
        this.attempt = value;
        this.hasAttempt = true;
        break;
      default:
        this.attrs = value;
    }
  }
}

/** A sample's trace events read as records: what the slime reader asks of the pickle. */
export const TRACE_EVENT_RECORDS: DictRecords = {
  path: ['trace', 'events'],
  make: () => new TraceEventRecord(),
};

/** The fields of a trace event, a dict or a record, as the walk reads them. */
export interface TraceEventFields {
  type: PyValue | undefined;
  name: PyValue | undefined;
  ts: PyValue | undefined;
  span_id: PyValue | undefined;
  parent_span_id: PyValue | undefined;
  attempt: PyValue | undefined;
  attrs: PyValue | undefined;
  hasAttempt: boolean;
}

/**
 * An event of a trace's list as its fields: a record as it is, a dict's fields read into
 * `into` (one object for every dict of a walk), null for anything else (skipped).
 */
export function eventFields(event: PyValue, into: TraceEventFields): TraceEventFields | null {
  if (event instanceof TraceEventRecord) return event;
  if (!isDict(event)) return null;
  into.type = event.type;
  into.name = event.name;
  into.ts = event.ts;
  into.span_id = event.span_id;
  into.parent_span_id = event.parent_span_id;
  into.attempt = event.attempt;
  into.attrs = event.attrs;
  into.hasAttempt = 'attempt' in event;
  return into;
}

/** A fields holder for eventFields' dicts. */
export function newEventFields(): TraceEventFields {
  return {
    type: undefined,
    name: undefined,
    ts: undefined,
    span_id: undefined,
    parent_span_id: undefined,
    attempt: undefined,
    attrs: undefined,
    hasAttempt: false,
  };
}
