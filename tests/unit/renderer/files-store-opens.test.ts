import { beforeEach, describe, expect, it } from 'vitest';
import type { FileSummary, OpenProgress } from '../../../src-main/core/api/trace-api';
import { useFilesStore } from '../../../src-renderer/state/files-store';
import { emptyFilesStore } from './empty-files-store';
import { opensSyncInTurn, syncOpens } from '../../../src-renderer/state/sync-opens';

// Opens main started (a file named at start-up), whose end only main's events tell: a late
// event never shows an open that is over again, and asking main (settleOpens, after serve
// mode's event stream broke) ends the opens it no longer lists.
const file = (fileId: string, rows: number, streaming: boolean): FileSummary =>
  ({
    fileId,
    name: `${fileId}.pt`,
    rows,
    ...(streaming ? { streaming: true } : {}),
  }) as FileSummary;
const progress = (
  openId: string,
  phase: OpenProgress['phase'],
  shown?: FileSummary,
): OpenProgress => ({
  openId,
  name: `${openId}.pt`,
  bytesRead: 10,
  bytesTotal: 100,
  samplesRead: shown?.rows ?? 0,
  phase,
  file: shown,
});
const state = () => useFilesStore.getState();
const openIds = () => state().opening.map((o) => o.openId);
const tabs = () => state().files.map((f) => [f.fileId, f.rows, f.streaming ?? false]);

describe('files store: opens main started', () => {
  beforeEach(emptyFilesStore);

  it('a reading event after the open was cancelled shows neither its tab nor its rows again', () => {
    state().progress(progress('m1', 'reading', file('f1', 50, true)));
    expect(openIds()).toEqual(['m1']);
    expect(state().opening[0].startedByMain).toBe(true);
    state().progress(progress('m1', 'cancelled'));
    expect([openIds(), tabs()]).toEqual([[], []]);
    // posted by the file's worker before it was ended, delivered after
    state().progress(progress('m1', 'reading', file('f1', 60, true)));
    expect([openIds(), tabs()]).toEqual([[], []]);
  });

  it('an end heard before the open was (a listing answered late) keeps it from showing', () => {
    state().progress(progress('m1', 'done'));
    state().progress(progress('m1', 'reading'));
    expect(openIds()).toEqual([]);
  });

  it("the page's own open, once its call answered, is not shown again by a late event", () => {
    state().startOpening('p1', 'p1.pt', 100);
    state().progress(progress('p1', 'reading', file('f1', 50, true)));
    state().finishOpening('p1');
    state().progress(progress('p1', 'reading', file('f1', 60, true)));
    expect([openIds(), tabs()]).toEqual([[], []]);
  });

  it('settles what main no longer lists: cancelled goes, done holds the whole file', () => {
    state().progress(progress('cancelled', 'reading', file('f1', 50, true)));
    state().progress(progress('done', 'reading', file('f2', 70, true)));
    state().progress(progress('going', 'reading', file('f3', 10, true)));
    const askedAbout = new Set(['cancelled', 'done', 'going']);
    state().settleOpens(
      askedAbout,
      [progress('going', 'reading', file('f3', 20, true))],
      [file('f2', 700, false), file('f3', 20, true)],
    );
    expect(openIds()).toEqual(['going']);
    expect(tabs()).toEqual([
      ['f2', 700, false],
      ['f3', 20, true],
    ]);
    // and a late event of an open settled as over changes nothing
    state().progress(progress('cancelled', 'reading', file('f1', 60, true)));
    expect(openIds()).toEqual(['going']);
  });

  it('leaves opens main was not asked about, and the page’s own opens, to their events and calls', () => {
    state().startOpening('own', 'own.pt', 100);
    state().progress(progress('own', 'reading'));
    // heard of after openingNow was asked: main may have started it after answering
    state().progress(progress('later', 'reading'));
    state().settleOpens(new Set(['own']), [], []);
    expect(openIds()).toEqual(['own', 'later']);
  });

  it('shows the opens main lists that the page has not heard of, with their rows so far', () => {
    state().settleOpens(new Set(), [progress('m1', 'reading', file('f1', 50, true))], []);
    expect(openIds()).toEqual(['m1']);
    expect(tabs()).toEqual([['f1', 50, true]]);
    expect(state().activeFileId).toBe('f1');
  });
});

describe('syncOpens: asking main what is going on', () => {
  beforeEach(emptyFilesStore);

  it('asks the open files after the opens, and ends only opens heard of before asking', async () => {
    state().progress(progress('gone', 'reading', file('f1', 50, true)));
    const asked: string[] = [];
    let answerOpens: (listed: OpenProgress[]) => void = () => {};
    const syncing = syncOpens({
      openingNow: () => {
        asked.push('openingNow');
        return new Promise((resolve) => (answerOpens = resolve));
      },
      listFiles: () => {
        asked.push('listFiles');
        return Promise.resolve([]);
      },
    });
    // main starts another open after answering; its first event comes before the answer
    state().progress(progress('later', 'reading'));
    expect(asked).toEqual(['openingNow']);
    answerOpens([]);
    await syncing;
    expect(asked).toEqual(['openingNow', 'listFiles']);
    expect([openIds(), tabs()]).toEqual([['later'], []]);
  });
});

describe('opensSyncInTurn: the page loaded as a file named at start-up finished opening', () => {
  beforeEach(emptyFilesStore);

  /**
   * main's answers in turn: the first openingNow lists the open still reading, the second
   * (asked when the event stream connected, after the open ended and its last event was sent
   * before the page listened) lists nothing; listFiles lists the whole file by then
   */
  function mainMidOpen() {
    const answers: ((listed: OpenProgress[]) => void)[] = [];
    const api = {
      openingNow: () => new Promise<OpenProgress[]>((resolve) => answers.push(resolve)),
      listFiles: () => Promise.resolve([file('f1', 16, false)]),
    };
    return { api, answers };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('why in turn: syncOpens twice at once cannot end it (the second never heard of it)', async () => {
    const { api, answers } = mainMidOpen();
    const first = syncOpens(api);
    const second = syncOpens(api);
    answers[0]([progress('x', 'reading', file('f1', 16, true))]);
    await first;
    answers[1]([]);
    await second;
    expect(openIds()).toEqual(['x']);
  });

  it('asks in turn: the second ask, made after the first answer, ends the open', async () => {
    const { api, answers } = mainMidOpen();
    const sync = opensSyncInTurn(api);
    const first = sync();
    const second = sync();
    const third = sync();
    expect(second).toBe(first);
    expect(third).toBe(first);
    await settle();
    expect(answers).toHaveLength(1);
    answers[0]([progress('x', 'reading', file('f1', 16, true))]);
    await settle();
    // the asks made meanwhile run once, after the first
    expect(answers).toHaveLength(2);
    answers[1]([]);
    await first;
    expect(answers).toHaveLength(2);
    expect([openIds(), tabs()]).toEqual([[], [['f1', 16, false]]]);
    // a later ask runs again
    const later = sync();
    expect(later).not.toBe(first);
    await settle();
    answers[2]([]);
    await later;
    expect(answers).toHaveLength(3);
  });
});

describe('files store: the progress count’s word', () => {
  beforeEach(emptyFilesStore);

  it('keeps what the format says its count counts, for the opening item to say', () => {
    state().progress({ ...progress('m1', 'reading'), samplesRead: 300, counted: 'spans' });
    expect([state().opening[0].samplesRead, state().opening[0].counted]).toEqual([300, 'spans']);
    // a Chrome trace's reports name no word: none is kept from before
    state().progress({ ...progress('m1', 'reading'), samplesRead: 0 });
    expect(state().opening[0].counted).toBeUndefined();
  });
});
