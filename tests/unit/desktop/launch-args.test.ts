import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLaunchArgs } from '../../../src-main/launch-args';

describe('launch arguments', () => {
  it('files resolved from the working folder, --compare and --serve; Chromium switches and "." ignored', () => {
    expect(
      parseLaunchArgs([
        '.',
        '--no-sandbox',
        '--compare',
        'a.pt',
        '/abs/b.pt',
        '--serve',
        '--foo=bar',
      ]),
    ).toEqual({ files: [resolve('a.pt'), '/abs/b.pt'], compare: true, serve: true });
  });

  it('nothing named: no files, no flags', () => {
    expect(parseLaunchArgs([])).toEqual({ files: [], compare: false, serve: false });
  });
});
