import { describe, expect, it } from 'vitest';
import type { GroupPage, GroupQuery } from '../../../src-main/core/api/trace-api';
import { GROUPS_PER_PAGE, groupPageOf } from '../../../src-renderer/host/data-hooks';
import type { TraceHost } from '../../../src-renderer/host/trace-host';

// The groups view's first page is kept per file and file state (prefetched while the user is on
// another tab); every other page is asked each time.
function fakeHost(failFirst = false) {
  const asked: GroupQuery[] = [];
  const host = {
    api: {
      getPerfGroups: async (_fileId: string, query: GroupQuery): Promise<GroupPage> => {
        asked.push(query);
        if (failFirst && asked.length === 1) throw new Error('worker busy');
        return { groups: [], offset: query.offset, shown: 0, total: asked.length, zeroVariance: 0 };
      },
    },
  } as unknown as TraceHost;
  return { host, asked };
}

const first: GroupQuery = { sort: 'group', filter: 'all', offset: 0, limit: GROUPS_PER_PAGE };

describe('pages of the groups view', () => {
  it('the first page is asked once per file and state; a grown file asks again', async () => {
    const { host, asked } = fakeHost();
    const a = await groupPageOf(host, 'f1', '100:false', first);
    expect(await groupPageOf(host, 'f1', '100:false', { ...first })).toBe(a);
    await groupPageOf(host, 'f1', '200:true', first);
    await groupPageOf(host, 'f2', '100:false', first);
    expect(asked).toHaveLength(3);
  });

  it('other sorts, filters and offsets are asked each time', async () => {
    const { host, asked } = fakeHost();
    await groupPageOf(host, 'f1', 's', { ...first, sort: 'wall' });
    await groupPageOf(host, 'f1', 's', { ...first, sort: 'wall' });
    await groupPageOf(host, 'f1', 's', { ...first, filter: 'resumed' });
    await groupPageOf(host, 'f1', 's', { ...first, offset: 100 });
    expect(asked.map((q) => [q.sort, q.filter, q.offset])).toEqual([
      ['wall', 'all', 0],
      ['wall', 'all', 0],
      ['group', 'resumed', 0],
      ['group', 'all', 100],
    ]);
  });

  it('a first page that failed is asked again', async () => {
    const { host, asked } = fakeHost(true);
    await expect(groupPageOf(host, 'f1', 's', first)).rejects.toThrow('worker busy');
    await Promise.resolve();
    const page = await groupPageOf(host, 'f1', 's', first);
    expect(page.total).toBe(2);
    expect(asked).toHaveLength(2);
  });
});
