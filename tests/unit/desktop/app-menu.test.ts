import { describe, expect, it, vi } from 'vitest';
import type { MenuCommand } from '../../../src-main/core/api/trace-api';

// Menu.buildFromTemplate hands back the template, so its items' click handlers can be pressed.
vi.mock('electron', () => ({ Menu: { buildFromTemplate: (template: unknown) => template } }));
const { buildAppMenu } = await import('../../../src-main/desktop/app-menu');

interface Item {
  label?: string;
  role?: string;
  enabled?: boolean;
  accelerator?: string;
  click?: () => void;
  submenu?: Item[];
}

function menuOf(recent: string[]) {
  const done: string[] = [];
  const menu = buildAppMenu(recent, {
    openDialog: () => done.push('open-dialog'),
    openRecent: (path) => done.push(`recent ${path}`),
    clearRecent: () => done.push('clear-recent'),
    command: (command: MenuCommand) => done.push(command),
  }) as unknown as Item[];
  /** an item by its path of labels, e.g. ['&File', 'Export', 'Rows as CSV…'] */
  const item = (...labels: string[]): Item => {
    let items = menu;
    let found: Item | undefined;
    for (const label of labels) {
      found = items.find((i) => i.label === label);
      if (!found) throw new Error(`no menu item ${labels.join(' > ')}`);
      items = found.submenu ?? [];
    }
    return found!;
  };
  return { menu, item, done };
}

describe('the native menu', () => {
  it('each item carries out its command', () => {
    const { item, done } = menuOf([]);
    const presses: [string[], string][] = [
      [['&File', 'Open…'], 'open-dialog'],
      [['&File', 'Compare with…'], 'compare'],
      [['&File', 'Export', 'Perfetto trace (.json.gz)…'], 'export-perfetto'],
      [['&File', 'Export', 'Rows as CSV…'], 'export-csv'],
      [['&File', 'Copy Picture of the View'], 'copy-picture'],
      [['&File', 'Close Tab'], 'close-tab'],
      [['&View', 'Zoom In'], 'zoom-in'],
      [['&View', 'Zoom Out'], 'zoom-out'],
      [['&View', 'Fit All'], 'zoom-fit'],
      [['&View', 'Theme', 'Follow System'], 'theme-system'],
      [['&View', 'Theme', 'Light'], 'theme-light'],
      [['&View', 'Theme', 'Dark'], 'theme-dark'],
      [['&View', 'Toggle Details Panel'], 'toggle-details'],
      [['&View', 'Toggle Perf View'], 'toggle-perf'],
      [['&Help', 'Keyboard Shortcuts'], 'shortcuts'],
      [['&Help', 'About Trace Explorer'], 'about'],
    ];
    for (const [labels] of presses) item(...labels).click!();
    expect(done).toEqual(presses.map(([, command]) => command));
  });

  it('the timeline’s single-key shortcuts are shown, not registered (typing in a box stays typing)', () => {
    const { item } = menuOf([]);
    for (const label of ['Zoom In', 'Zoom Out', 'Fit All'])
      expect(item('&View', label)).toMatchObject({ registerAccelerator: false });
    expect(item('&View', 'Zoom In').accelerator).toBe('W');
  });

  it('recent files open by path; Clear Recent is off when there are none', () => {
    const empty = menuOf([]);
    expect(empty.item('&File', 'Open Recent').submenu!.map((i) => i.label)).toEqual([
      'Clear Recent',
    ]);
    expect(empty.item('&File', 'Open Recent', 'Clear Recent').enabled).toBe(false);
    const some = menuOf(['/runs/rollout_7.pt', '/runs/rollout_8.pt']);
    const recent = some.item('&File', 'Open Recent').submenu!;
    expect(recent.map((i) => i.label ?? i.role ?? 'separator')).toEqual([
      '/runs/rollout_7.pt',
      '/runs/rollout_8.pt',
      'separator',
      'Clear Recent',
    ]);
    recent[1].click!();
    some.item('&File', 'Open Recent', 'Clear Recent').click!();
    expect(some.item('&File', 'Open Recent', 'Clear Recent').enabled).toBe(true);
    expect(some.done).toEqual(['recent /runs/rollout_8.pt', 'clear-recent']);
  });
});
