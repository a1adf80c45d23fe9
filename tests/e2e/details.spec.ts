import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PD_PHASES } from '../../src-main/core/model/pd-phases';
import { fileOpen } from './support/app-ready';

// Details panel and toolbar against serve mode, checked against slime's own cache JSON.
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';

type Attrs = Record<string, unknown>;
interface Item {
  type: 'span' | 'event' | 'orphan_end';
  state: string;
  name: string;
  lane: number;
  start_ts?: number;
  end_ts?: number | null;
  display_end_ts?: number;
  ts?: number;
  parent_span_name: string | null;
  attrs: { start_attrs: Attrs; end_attrs: Attrs } | Attrs;
}
interface Row {
  row_id: number;
  sample_index: number;
  source: string | null;
  status: string;
  label: unknown;
  reward: unknown;
  trace_id: string;
  attempt: number;
  start: number;
  end: number;
  duration: number;
  items: Item[];
}
interface Cache {
  sample_count: number;
  global_start: number | null;
  rows: Row[];
}

const cache = (name: string) =>
  JSON.parse(readFileSync(resolve(SLIME, `${name}.expected.json`), 'utf8')) as Cache;

async function open(page: Page, name: string) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, name));
  await fileOpen(page, name);
}

async function openWithRows(page: Page, name: string) {
  await open(page, name);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  // the fixture's rows do not all fit expanded, so they open collapsed: clicks below go by lane
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-expanded', 'false');
  await page.getByTestId('toggle-all-lanes').click();
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-expanded', 'true');
}

/**
 * Clicks the item of a row at a time (seconds from the file start), lane by lane from the top,
 * until the details show an item of that name: lanes of the explorer may differ from slime's
 * (PD lanes are packed), the time does not.
 */
async function clickItem(page: Page, rowId: number, name: string, atSec: number) {
  const axis = page.getByTestId('time-axis');
  const start = Number(await axis.getAttribute('data-start'));
  const end = Number(await axis.getAttribute('data-end'));
  const canvas = (await page.getByTestId('timeline-canvas').boundingBox())!;
  const row = page.locator(`[data-testid=timeline-row][data-row-id="${rowId}"]`);
  const box = (await row.boundingBox())!;
  const lanes = Number(await row.getAttribute('data-lanes'));
  const x = canvas.x + ((atSec - start) / (end - start)) * canvas.width;
  const details = page.getByTestId('details-panel');
  for (let lane = 0; lane < lanes; lane++) {
    await page.mouse.click(x, box.y + 3 + lane * 16 + 8);
    const index = await details.getAttribute('data-index');
    if (index === null) continue;
    const section = page.locator(`[data-testid=span-details][data-index="${index}"]`);
    await expect(section).toBeVisible();
    if ((await section.getByTestId('span-name').textContent()) === name) return section;
  }
  throw new Error(`no ${name} at ${atSec}s in row ${rowId}`);
}

/** An attribute cell's text as the table shows it. */
const cell = (page: Page, table: string, key: string) =>
  page.locator(`[data-testid=${table}] tr[data-key="${key}"] .attr-value`);

/**
 * A value as the attribute table shows it: numbers carry their exact value in `data-raw` (the
 * text has slime's units, tests/unit/details/details-helpers.test.ts), the rest as text.
 */
async function expectShown(page: Page, table: string, key: string, value: unknown) {
  const shown = cell(page, table, key);
  if (typeof value === 'number') expect(Number(await shown.getAttribute('data-raw'))).toBe(value);
  else if (typeof value === 'string') expect(await shown.textContent()).toBe(value);
  else expect(JSON.parse((await shown.textContent())!)).toEqual(value);
}

const score = (reward: unknown): number | null =>
  typeof reward === 'number'
    ? reward
    : reward && typeof reward === 'object' && typeof (reward as Attrs).score === 'number'
      ? ((reward as Attrs).score as number)
      : null;

test.describe('details panel', () => {
  const { rows, global_start } = cache('rollout_small.pt');
  const g0 = global_start!;

  test('a closed request span: times, parent, state, start and end attrs, and its sample', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openWithRows(page, 'rollout_small.pt');
    // a row with a numeric reward, so the sample's reward is checked exactly
    const row = rows.find(
      (r) =>
        typeof r.reward === 'number' &&
        r.items.some((i) => i.name === 'sglang_generate' && i.state === 'closed_span'),
    )!;
    const span = row.items.find((i) => i.name === 'sglang_generate' && i.state === 'closed_span')!;
    const attrs = span.attrs as { start_attrs: Attrs; end_attrs: Attrs };
    const section = await clickItem(
      page,
      row.row_id,
      'sglang_generate',
      (span.start_ts! + span.end_ts!) / 2 - g0,
    );

    await expect(section.getByTestId('span-state')).toContainText('closed');
    const seconds = Number(
      await section
        .locator('[data-testid=span-duration] [data-seconds]')
        .getAttribute('data-seconds'),
    );
    expect(seconds).toBeCloseTo(span.end_ts! - span.start_ts!, 5);
    await expect(section.getByTestId('span-parent')).toContainText(span.parent_span_name!);
    for (const [key, value] of Object.entries(attrs.start_attrs))
      await expectShown(page, 'start-attrs', key, value);
    for (const [key, value] of Object.entries(attrs.end_attrs))
      await expectShown(page, 'end-attrs', key, value);

    // search narrows both attribute tables; "Copy all" puts the end attrs on the clipboard
    await page
      .getByTestId('attr-search')
      .fill('finish_reason=' + String(attrs.end_attrs.finish_reason));
    await expect(page.locator('[data-testid=end-attrs] tr[data-key]')).toHaveCount(1);
    await expect(page.locator('[data-testid=start-attrs] tr[data-key]')).toHaveCount(0);
    await page.getByTestId('attr-search').fill('');
    await page.getByTestId('end-attrs-copy-all').click();
    await expect(page.getByTestId('end-attrs-copy-all')).toHaveAttribute('data-copied', 'true');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toEqual(attrs.end_attrs);

    // the sample behind the row
    const sample = page.getByTestId('sample-details');
    await expect(sample).toContainText(`Sample #${row.sample_index}`);
    await expect(sample.getByTestId('sample-status')).toHaveText(row.status);
    await expect(sample.getByTestId('sample-label')).toHaveText(String(row.label));
    expect(Number(await sample.getByTestId('sample-reward').textContent())).toBe(row.reward);
    await expect(sample).toContainText(row.trace_id);
    // its timing first (issue 48): the split of its own time sums to slime's row duration
    const timing = sample.getByTestId('sample-timing');
    await expect(timing).toContainText(/\d+ turns? · \d+ attempts?/);
    expect(Number(await timing.getAttribute('data-duration'))).toBeCloseTo(row.duration, 5);
    const parts = timing.getByTestId('timing-part');
    expect(await parts.count()).toBeGreaterThan(1);
    const split = await parts.evaluateAll((trs) =>
      trs.map((tr) => Number(tr.getAttribute('data-sec'))),
    );
    expect(split.reduce((x, y) => x + y, 0)).toBeCloseTo(row.duration, 5);

    await page.keyboard.press('Escape');
    await expect(page.getByTestId('span-details')).toHaveCount(0);
    await expect(page.getByTestId('sample-details')).toHaveCount(0);
  });

  test('PD decode phases in ms and shares with the fixed colours', async ({ page }) => {
    await openWithRows(page, 'rollout_small.pt');
    const row = rows.find((r) => r.items.some((i) => i.name === 'sglang_pd_decode'))!;
    const decode = row.items.find((i) => i.name === 'sglang_pd_decode')!;
    const section = await clickItem(
      page,
      row.row_id,
      'sglang_pd_decode',
      (decode.start_ts! + decode.end_ts!) / 2 - g0,
    );
    const breakdown = section.getByTestId('pd-breakdown');
    await expect(breakdown).toHaveAttribute('data-role', 'decode');
    // each phase is a child span whose end attrs carry pd_decode_<phase>_duration
    const phases = row.items
      .filter((i) => i.name.startsWith('sglang_pd_decode_'))
      .map((i) => ({
        phase: i.name.slice('sglang_pd_decode_'.length),
        sec: (i.attrs as { end_attrs: Attrs }).end_attrs[
          `pd_${i.name.slice('sglang_pd_'.length)}_duration`
        ] as number,
      }))
      .filter((p) => p.sec > 0);
    const shown = breakdown.locator('tr[data-phase]');
    await expect(shown).toHaveCount(phases.length);
    const total = phases.reduce((s, p) => s + p.sec, 0);
    for (const { phase, sec } of phases) {
      const tr = breakdown.locator(`tr[data-phase="${phase}"]`);
      expect(Number(await tr.getAttribute('data-seconds'))).toBeCloseTo(sec, 6);
      const share = (await tr.locator('td').nth(2).textContent())!;
      // below 0.1% the panel says so instead of rounding to 0.0%
      const percent = (sec / total) * 100;
      expect(percent < 0.1 ? share : Number(share.replace('%', ''))).toBe(
        percent < 0.1 ? '<0.1%' : Number(percent.toFixed(1)),
      );
      const colour = PD_PHASES.find((p) => p.role === 'decode' && p.phase === phase)!.colour;
      const rgb = `rgb(${[1, 3, 5].map((k) => parseInt(colour.slice(k, k + 2), 16)).join(', ')})`;
      await expect(tr.locator('.swatch')).toHaveCSS('background-color', rgb);
    }
  });

  test('an ongoing span says where its drawn end comes from; an unmatched end is marked', async ({
    page,
  }) => {
    await openWithRows(page, 'rollout_small.pt');
    const row = rows.find((r) => r.items.some((i) => i.state === 'open_span'))!;
    const open = row.items.find((i) => i.state === 'open_span')!;
    const section = await clickItem(
      page,
      row.row_id,
      open.name,
      (open.start_ts! + open.display_end_ts!) / 2 - g0,
    );
    await expect(section).toHaveAttribute('data-state', 'ongoing');
    await expect(section.getByTestId('span-state')).toContainText('ongoing');
    const clip = (open.attrs as { end_attrs: Attrs }).end_attrs.clipped_by as string;
    await expect(cell(page, 'end-attrs', 'clipped_by')).toHaveText(clip);
    await expect(section.getByTestId('span-end')).toContainText('—');

    const orphanRow = rows.find((r) => r.items.some((i) => i.type === 'orphan_end'))!;
    const orphan = orphanRow.items.find((i) => i.type === 'orphan_end')!;
    await page.getByTestId('search-box').fill(orphanRow.trace_id);
    await expect(page.getByTestId('row-count')).toHaveAttribute('data-shown', '1');
    const orphanSection = await clickItem(page, orphanRow.row_id, orphan.name, orphan.ts! - g0);
    await expect(orphanSection).toHaveAttribute('data-state', 'orphan');
  });

  test('token ids, loss mask and log probs load on request', async ({ page }) => {
    await openWithRows(page, 'rollout_small.pt');
    const row = rows.find((r) => r.status === 'completed')!;
    await page.locator(`[data-testid=timeline-row][data-row-id="${row.row_id}"]`).click();
    const tokens = page.getByTestId('token-counts');
    await expect(tokens).toBeVisible();
    const responseLength = Number(await tokens.getByTestId('response-length').textContent());
    expect(responseLength).toBeGreaterThan(0);
    // slime's loss mask has one entry per response token
    await expect(tokens.getByTestId('length-loss_mask')).toHaveText(String(responseLength));
    await expect(tokens.getByTestId('values-loss_mask')).toHaveCount(0);
    await tokens.getByTestId('load-loss_mask').click();
    const mask = (await tokens.getByTestId('values-loss_mask').textContent())!;
    // rollout_small is single-turn (slime/README.md: no tool calls), so slime masks no response
    // token: one run of ones as long as the response
    expect(mask).toBe(`1×${responseLength}`);
    await tokens.getByTestId('load-rollout_log_probs').click();
    await expect(tokens.getByTestId('values-rollout_log_probs')).toContainText('mean');
    await tokens.getByTestId('load-tokens').click();
    const ids = (await tokens.getByTestId('values-tokens').textContent())!;
    expect(
      ids
        .split(' ')
        .slice(0, 5)
        .every((t) => /^\d+$/.test(t)),
    ).toBe(true);
  });

  test('a sample’s other tensors: dtype and shape at once, their values on request', async ({
    page,
  }) => {
    // every sample of rollout_tensors.pt holds rollout_routed_experts, int32 [tokens-1, 4, 2]
    // (slime/README.md), and its top-p token ids
    await openWithRows(page, 'rollout_tensors.pt');
    await page.getByTestId('timeline-row').first().click();
    const tensors = page.getByTestId('tensor-fields');
    await expect(tensors).toBeVisible();
    const shape = (await tensors.getByTestId('shape-rollout_routed_experts').textContent())!;
    const [, tokens] = /^int32 \[(\d+) × 4 × 2\]$/.exec(shape)!;
    await expect(tensors.getByTestId('shape-rollout_top_p_token_ids')).toHaveText(
      /^int32 \[\d+\]$/,
    );
    // shown here, not again among the other fields
    await expect(page.getByTestId('sample-other')).not.toContainText('rollout_routed_experts');
    await tensors.getByTestId('load-rollout_routed_experts').click();
    await tensors.getByRole('button', { name: 'All' }).click();
    const values = (await tensors.getByTestId('values-rollout_routed_experts').textContent())!
      .trim()
      .split(' ');
    // every expert id of every token, layer and top-k slot: small non-negative integers
    expect(values).toHaveLength(Number(tokens) * 8);
    expect(values.every((v) => /^\d+$/.test(v))).toBe(true);
    // a tensor nested in a dict: the image grid of the multimodal inputs (int64 [1 × 3])
    const grid = 'multimodal_train_inputs.image_grid_thw';
    await expect(tensors.getByTestId(`shape-${grid}`)).toHaveText('int64 [1 × 3]');
    await tensors.getByTestId(`load-${grid}`).click();
    await expect(tensors.getByTestId(`values-${grid}`)).toHaveText(/^\d+ \d+ \d+$/);
    await expect(page.getByTestId('sample-other')).not.toContainText('image_grid_thw');
  });

  test('a chat prompt shows each message with its role, as the sample holds it', async ({
    page,
  }) => {
    await openWithRows(page, 'rollout_agentic.pt');
    const agentic = cache('rollout_agentic.pt').rows;
    // read the sample through the same API the panel uses, and find one with chat messages
    const fileId = await page.evaluate(async () => {
      const response = await fetch('/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-trace-token': 'e2e-test-token' },
        body: JSON.stringify({ method: 'listFiles', args: [] }),
      });
      const files = ((await response.json()) as { result: { fileId: string }[] }).result;
      return files[files.length - 1].fileId;
    });
    let chosen: { rowId: number; prompt: { role: string; content: string }[] } | null = null;
    for (const row of agentic) {
      const prompt = await page.evaluate(
        async ([id, rowId]) => {
          const response = await fetch('/api/call', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-trace-token': 'e2e-test-token' },
            body: JSON.stringify({ method: 'getSample', args: [id, rowId] }),
          });
          return ((await response.json()) as { result: { fields: { prompt: unknown } } }).result
            .fields.prompt;
        },
        [fileId, row.row_id] as const,
      );
      if (Array.isArray(prompt)) {
        chosen = { rowId: row.row_id, prompt: prompt as { role: string; content: string }[] };
        break;
      }
    }
    expect(chosen).not.toBeNull();
    await page
      .getByTestId('search-box')
      .fill(agentic.find((r) => r.row_id === chosen!.rowId)!.trace_id);
    await page.locator(`[data-testid=timeline-row][data-row-id="${chosen!.rowId}"]`).click();
    const messages = page.getByTestId('sample-prompt').getByTestId('chat-message');
    await expect(messages).toHaveCount(chosen!.prompt.length);
    for (const [i, m] of chosen!.prompt.entries()) {
      await expect(messages.nth(i).locator('.chat-role')).toContainText(m.role);
      await expect(messages.nth(i).locator('.chat-content')).toHaveText(m.content);
    }
  });
});

test.describe('toolbar', () => {
  const { rows, sample_count } = cache('rollout_small.pt');
  const shown = (page: Page) => page.getByTestId('row-count');

  test('search, chips, reward range and span filter show the counts slime’s rows give', async ({
    page,
  }) => {
    await openWithRows(page, 'rollout_small.pt');
    await expect(shown(page)).toHaveAttribute('data-total', String(rows.length));
    await expect(page.getByTestId('untraced-count')).toHaveAttribute(
      'data-count',
      String(sample_count - rows.length),
    );

    // a trace id is one row; a span name is every row that has it
    await page.getByTestId('search-box').fill(rows[3].trace_id.toUpperCase());
    await expect(shown(page)).toHaveAttribute('data-shown', '1');
    await expect(page.getByTestId('timeline-row')).toHaveAttribute(
      'data-row-id',
      String(rows[3].row_id),
    );
    await page.getByTestId('search-box').fill('abort_request');
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(rows.filter((r) => r.items.some((i) => i.name === 'abort_request')).length),
    );
    await page.getByTestId('clear-filters').click();
    await expect(page.getByTestId('search-box')).toHaveValue('');
    await expect(shown(page)).toHaveAttribute('data-shown', String(rows.length));

    // chips of one kind are "any of"; kinds combine with "and"
    const statuses = [...new Set(rows.map((r) => r.status))].slice(0, 2);
    for (const s of statuses)
      await page.locator(`[data-testid=status-chip][data-value="${s}"]`).click();
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(rows.filter((r) => statuses.includes(r.status)).length),
    );
    const source = rows[0].source!;
    await page.locator(`[data-testid=source-chip][data-value="${source}"]`).click();
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(rows.filter((r) => statuses.includes(r.status) && r.source === source).length),
    );
    await page.getByTestId('clear-filters').click();

    await page.locator('[data-testid=attempt-chip][data-value="1"]').click();
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(rows.filter((r) => r.attempt === 1).length),
    );
    await page.locator('[data-testid=attempt-chip][data-value="1"]').click();

    await page.getByTestId('reward-min').fill('0.5');
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(rows.filter((r) => (score(r.reward) ?? -Infinity) >= 0.5).length),
    );
    await page.getByTestId('reward-max').fill('0.9');
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(
        rows.filter((r) => {
          const s = score(r.reward);
          return s !== null && s >= 0.5 && s <= 0.9;
        }).length,
      ),
    );
    await page.getByTestId('clear-filters').click();
    await expect(page.getByTestId('reward-min')).toHaveValue('');

    await page.getByTestId('span-filter').selectOption('abort_request');
    await expect(shown(page)).toHaveAttribute(
      'data-shown',
      String(rows.filter((r) => r.items.some((i) => i.name === 'abort_request')).length),
    );
  });

  test('highlight mode keeps every row and dims those that do not match', async ({ page }) => {
    await openWithRows(page, 'rollout_small.pt');
    await page.getByTestId('mode-highlight').click();
    await page.locator('[data-testid=status-chip][data-value=aborted]').click();
    const aborted = rows.filter((r) => r.status === 'aborted');
    await expect(shown(page)).toHaveAttribute('data-mode', 'highlight');
    await expect(shown(page)).toHaveAttribute('data-shown', String(aborted.length));
    await expect(shown(page)).toContainText(`${aborted.length} match of ${rows.length} rows`);
    const labels = page.getByTestId('timeline-row');
    await expect(labels.first()).toHaveAttribute('data-row-id', String(rows[0].row_id));
    for (const label of await labels.all()) {
      const id = Number(await label.getAttribute('data-row-id'));
      const matches = aborted.some((r) => r.row_id === id);
      await expect(label).toHaveClass(matches ? /^(?!.*\bdimmed\b)/ : /\bdimmed\b/);
    }
    await page.getByTestId('mode-filter').click();
    await expect(labels).toHaveCount(aborted.length);
  });

  test('sort by reward, descending, puts a best-rewarded sample first', async ({ page }) => {
    await openWithRows(page, 'rollout_small.pt');
    await page.getByTestId('sort-select').selectOption('reward');
    await page.getByTestId('sort-direction').click();
    await expect(page.getByTestId('sort-direction')).toHaveAttribute('data-descending', 'true');
    const best = Math.max(...rows.map((r) => score(r.reward) ?? -Infinity));
    // the rows re-order when the query answers: wait for it rather than read the old order
    const firstScore = async () => {
      const first = Number(
        await page.getByTestId('timeline-row').first().getAttribute('data-row-id'),
      );
      return score(rows.find((r) => r.row_id === first)!.reward);
    };
    await expect.poll(firstScore).toBe(best);
  });

  test('a dump without traces says how many samples it holds', async ({ page }) => {
    await open(page, 'no_trace.pt');
    expect(cache('no_trace.pt').rows).toHaveLength(0);
    // slime's cache counts no samples here; the fixture README says how many the dump holds
    const readme = readFileSync(resolve(SLIME, 'README.md'), 'utf8');
    const [, groups, perGroup] = /\| no_trace\.pt \| \d+ \| (\d+) x (\d+)/.exec(readme)!;
    const samples = Number(groups) * Number(perGroup);
    await expect(page.getByTestId('untraced-count')).toHaveAttribute('data-count', String(samples));
    await expect(page.getByTestId('untraced-count')).toContainText(
      `${samples} samples without trace`,
    );
    await expect(page.getByTestId('row-count')).toContainText('0 / 0 rows');
  });
});
