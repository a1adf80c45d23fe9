import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../core/api/trace-api';

export interface MenuActions {
  openDialog(): void;
  openRecent(path: string): void;
  clearRecent(): void;
  command(command: MenuCommand): void;
}

/** The native menu: File, View, Help; what the renderer carries out goes as a MenuCommand. */
export function buildAppMenu(recent: string[], actions: MenuActions): Menu {
  const isMac = process.platform === 'darwin';
  const send = (command: MenuCommand) => () => actions.command(command);
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.openDialog() },
        {
          label: 'Open Recent',
          submenu: [
            ...recent.map((path) => ({ label: path, click: () => actions.openRecent(path) })),
            ...(recent.length > 0 ? [{ type: 'separator' as const }] : []),
            {
              label: 'Clear Recent',
              enabled: recent.length > 0,
              click: () => actions.clearRecent(),
            },
          ],
        },
        { label: 'Compare with…', accelerator: 'CmdOrCtrl+Shift+C', click: send('compare') },
        { type: 'separator' },
        {
          label: 'Export',
          submenu: [
            { label: 'Perfetto trace (.json.gz)…', click: send('export-perfetto') },
            { label: 'Rows as CSV…', click: send('export-csv') },
          ],
        },
        {
          label: 'Copy Picture of the View',
          accelerator: 'CmdOrCtrl+Alt+C',
          click: send('copy-picture'),
        },
        // the renderer's Share menu opens (its content checkbox), then asks exportReport
        { label: 'Share report…', click: send('share-report') },
        { type: 'separator' },
        { label: 'Close Tab', accelerator: 'CmdOrCtrl+W', click: send('close-tab') },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: '&View',
      submenu: [
        { label: 'Zoom In', accelerator: 'W', registerAccelerator: false, click: send('zoom-in') },
        {
          label: 'Zoom Out',
          accelerator: 'S',
          registerAccelerator: false,
          click: send('zoom-out'),
        },
        { label: 'Fit All', accelerator: '0', registerAccelerator: false, click: send('zoom-fit') },
        { type: 'separator' },
        {
          label: 'Theme',
          submenu: [
            { label: 'Follow System', click: send('theme-system') },
            { label: 'Light', click: send('theme-light') },
            { label: 'Dark', click: send('theme-dark') },
          ],
        },
        {
          label: 'Toggle Details Panel',
          accelerator: 'CmdOrCtrl+I',
          click: send('toggle-details'),
        },
        { label: 'Toggle Perf View', accelerator: 'CmdOrCtrl+P', click: send('toggle-perf') },
        { type: 'separator' },
        { role: 'resetZoom', label: 'Actual Size (UI)' },
        { role: 'zoomIn', label: 'Larger UI' },
        { role: 'zoomOut', label: 'Smaller UI' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Help',
      submenu: [
        {
          label: 'Keyboard Shortcuts',
          accelerator: 'Shift+/',
          registerAccelerator: false,
          click: send('shortcuts'),
        },
        { label: 'About Trace Explorer', click: send('about') },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
