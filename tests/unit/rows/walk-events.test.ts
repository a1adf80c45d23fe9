import { describe, expect, it } from 'vitest';
import { walkEvents } from '../../../src-main/core/rows/collect-items';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { ev } from './events';

const names = (list: { name: string }[]) => list.map((x) => x.name);

describe('walkEvents (TRACE_MODEL 3, steps 1-3)', () => {
  it('infers the parent from the stack of open spans; an explicit parent wins', () => {
    const walk = walkEvents(
      [
        ev('span_start', 'root', 1, { span_id: 'r' }),
        ev('span_start', 'child', 2, { span_id: 'c' }),
        ev('span_start', 'explicit', 3, { span_id: 'e', parent_span_id: 'r' }),
        ev('span_end', 'explicit', 4, { span_id: 'e' }),
        ev('event', 'tick', 5),
        ev('span_end', 'child', 6, { span_id: 'c' }),
        ev('span_end', 'root', 7, { span_id: 'r' }),
      ],
      0,
    );
    const parent = (name: string) => walk.spans.find((s) => s.name === name)!.parent;
    expect(parent('root')).toBeNull();
    expect(parent('child')).toBe('r');
    expect(parent('explicit')).toBe('r');
    // the explicit span was on the stack above child: after its end, child is the top again
    expect(walk.events[0].parent).toBe('c');
  });

  it('orders spans as slime does: closed ones in closing order, then open ones', () => {
    const walk = walkEvents(
      [
        ev('span_start', 'a', 1, { span_id: 'a' }),
        ev('span_start', 'b', 2, { span_id: 'b' }),
        ev('span_start', 'open', 3, { span_id: 'o' }),
        ev('span_end', 'b', 4, { span_id: 'b' }),
        ev('span_end', 'a', 5, { span_id: 'a' }),
      ],
      0,
    );
    expect(names(walk.spans)).toEqual(['b', 'a', 'open']);
    expect(walk.spans[2].end).toBeNull();
  });

  it('span_start without span_id is an instant event; span_end without or with an unknown id is an orphan', () => {
    const walk = walkEvents(
      [
        ev('span_start', 'root', 1, { span_id: 'r' }),
        ev('span_start', 'no_id', 2),
        ev('span_end', 'no_id_end', 3),
        ev('span_end', 'ghost', 4, { span_id: 'g' }),
        ev('custom_type', 'other', 5),
        ev('span_end', 'root', 6, { span_id: 'r' }),
      ],
      0,
    );
    expect(names(walk.events)).toEqual(['no_id', 'other']);
    expect(names(walk.orphans)).toEqual(['no_id_end', 'ghost']);
    expect(walk.orphans.map((o) => o.spanId)).toEqual([null, 'g']);
    expect(walk.orphans.map((o) => o.parent)).toEqual(['r', 'r']);
  });

  it('a duplicate open id replaces the earlier span; its second end is an orphan', () => {
    const walk = walkEvents(
      [
        ev('span_start', 'first', 1, { span_id: 's' }),
        ev('span_start', 'second', 2, { span_id: 's' }),
        ev('span_end', 'dup', 3, { span_id: 's' }),
        ev('span_end', 'dup', 4, { span_id: 's' }),
        ev('event', 'after', 5),
      ],
      0,
    );
    expect(names(walk.spans)).toEqual(['second']);
    // the second span's inferred parent is the first span's id, i.e. its own
    expect(walk.spans[0].parent).toBe('s');
    expect(names(walk.orphans)).toEqual(['dup']);
    // the orphaned second end still popped the id's remaining stack entry
    expect(walk.events[0].parent).toBeNull();
  });

  it('infers parents as a plain list of open ids does, on stacks deeper than the look-through', () => {
    // slime's stack: a list, the last occurrence of an ended id removed, the top the parent
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 20; round++) {
      const events: Record<string, PyValue>[] = [];
      const expected: (string | null)[] = [];
      const open: string[] = [];
      // few ids, so that ids repeat on the stack; up to 80 deep
      for (let i = 0; i < 300; i++) {
        const id = `s${random(50)}`;
        const start = open.length < 80 && random(3) > 0;
        events.push(ev(start ? 'span_start' : 'span_end', id, i, { span_id: id }));
        if (start) open.push(id);
        else if (open.lastIndexOf(id) >= 0) open.splice(open.lastIndexOf(id), 1);
        events.push(ev('event', `after${i}`, i));
        expected.push(open.length > 0 ? open[open.length - 1] : null);
      }
      const walk = walkEvents(events, 0);
      expect(walk.events.map((point) => point.parent)).toEqual(expected);
    }
  });

  it('an id re-opened after it closed keeps both spans, the open one winning lookups by id', () => {
    const walk = walkEvents(
      [
        ev('span_start', 'old', 1, { span_id: 'x' }),
        ev('span_end', 'old', 2, { span_id: 'x' }),
        ev('span_start', 'new', 3, { span_id: 'x' }),
      ],
      0,
    );
    expect(names(walk.spans)).toEqual(['old', 'new']);
    expect(walk.byId.get('x')!.name).toBe('new');
  });

  it('skips non-dict events and timestamps that float() refuses; numeric strings and booleans count', () => {
    const walk = walkEvents(
      [
        'not-an-event',
        null,
        ev('event', 'missing', undefined as never),
        ev('event', 'none', null),
        ev('event', 'text', 'soon'),
        ev('event', 'string', ' 12.5 '),
        ev('event', 'bool', true),
        ev('event', 'list', [1] as never),
      ],
      0,
    );
    expect(names(walk.events)).toEqual(['string', 'bool']);
    expect(walk.events.map((e) => e.ts)).toEqual([12.5, 1]);
    expect(walk.kept).toBe(2);
    expect(walk.maxTs).toBe(12.5);
  });

  it("takes the event's attempt when the key is there, else the trace's; None is 0", () => {
    const { events } = walkEvents(
      [
        { type: 'event', name: 'own', ts: 1, attempt: 3 },
        { type: 'event', name: 'inherited', ts: 2 },
        { type: 'event', name: 'none', ts: 3, attempt: null },
        { type: 'event', name: 'float', ts: 4, attempt: 2.7 },
      ],
      2,
    );
    expect(events.map((e) => e.attempt)).toEqual([3, 2, 0, 2]);
  });
});
