import { beforeEach, describe, expect, it } from 'vitest';
import type { TraceApi } from '../../../src-main/core/api/trace-api';
import type { TrendFileProgress, TrendsResult } from '../../../src-main/core/model/trend';
import { useTrendsStore, withProgress } from '../../../src-renderer/state/trends-store';
import { syncTrends } from '../../../src-renderer/trends/sync-trends';

// A trends tab after a break in serve mode's event stream: main's answer to trendsNow and the
// 'trends-progress' events travel apart, so each dump keeps the furthest of what was heard, and
// a dump is listed once however often it is heard of.

const reading = (path: string, bytesRead: number): TrendFileProgress => ({
  path,
  state: 'reading',
  bytesRead,
  bytesTotal: 100,
});
const done = (path: string): TrendFileProgress => ({
  path,
  state: 'done',
  bytesRead: 100,
  bytesTotal: 100,
});

beforeEach(() => useTrendsStore.setState({ sets: [], activeId: null }));

describe('withProgress', () => {
  it('adds dumps not heard of, in the order given, each once', () => {
    const files = withProgress({ '/a': reading('/a', 10) }, [done('/b'), reading('/c', 0)]);
    expect(Object.keys(files)).toEqual(['/a', '/b', '/c']);
    expect(withProgress(files, [done('/b'), reading('/c', 0)])).toEqual(files);
  });

  it('keeps the furthest: a read dump stays read, a dump being read keeps the most bytes', () => {
    const files = { '/a': done('/a'), '/b': reading('/b', 50) };
    expect(withProgress(files, [reading('/a', 30), reading('/b', 20)])).toEqual(files);
    expect(withProgress(files, [reading('/b', 70)])['/b']).toEqual(reading('/b', 70));
    const incomplete: TrendFileProgress = { ...reading('/b', 0), state: 'incomplete' };
    expect(withProgress(files, [incomplete])['/b']).toEqual(incomplete);
  });
});

describe('syncTrends', () => {
  it('asks main about the tabs still reading, and shows the dumps read meanwhile', async () => {
    const store = useTrendsStore.getState();
    store.start('t1', 'run', ['/run']);
    store.start('t2', 'other', ['/other']);
    store.finish('t2', { points: [] } as unknown as TrendsResult);
    store.progress('t1', reading('/run/rollout_0.pt', 10));
    store.progress('t1', reading('/run/rollout_1.pt', 10));
    const asked: string[] = [];
    const now = [done('/run/rollout_0.pt'), reading('/run/rollout_1.pt', 60)];
    const api = {
      trendsNow: async (openId: string) => {
        asked.push(openId);
        return now;
      },
    } as unknown as TraceApi;
    await syncTrends(api);
    expect(asked).toEqual(['t1']);
    const files = useTrendsStore.getState().sets[0].files;
    expect(Object.values(files)).toEqual(now);
    // asked again (another reconnect), then an event that was on its way: nothing doubles or
    // goes back
    await syncTrends(api);
    useTrendsStore.getState().progress('t1', reading('/run/rollout_1.pt', 40));
    expect(Object.values(useTrendsStore.getState().sets[0].files)).toEqual(now);
  });

  it('a tab whose call answered meanwhile is left as its answer shows it', async () => {
    const store = useTrendsStore.getState();
    store.start('t1', 'run', ['/run']);
    const api = { trendsNow: async () => null } as unknown as TraceApi;
    await syncTrends(api);
    store.finish('t1', { points: [] } as unknown as TrendsResult);
    useTrendsStore.getState().catchUp('t1', [done('/run/rollout_0.pt')]);
    expect(useTrendsStore.getState().sets[0].files).toEqual({});
  });
});
