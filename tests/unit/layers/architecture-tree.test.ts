import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md's layout tree is true: every folder it names exists, and every folder
// under src-main and src-renderer is named in it (a new folder is placed in the tree).
const ROOT = resolve(__dirname, '../../..');

/** The folders the tree names, as paths: nested by two spaces, a folder's line ends its name in /. */
function treeFolders(markdown: string): string[] {
  const section = markdown.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = section.match(/```\n([\s\S]*?)```/)?.[1] ?? '';
  const stack: string[] = [];
  const folders: string[] = [];
  for (const line of block.split('\n')) {
    const match = line.match(/^( *)([\w.-]+)\/(\s|$)/);
    if (!match) continue;
    const depth = match[1].length / 2;
    stack.length = depth;
    stack.push(match[2]);
    folders.push(stack.join('/'));
  }
  return folders;
}

function foldersUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .filter((name) => statSync(join(ROOT, dir, name)).isDirectory())
    .flatMap((name) => [`${dir}/${name}`, ...foldersUnder(`${dir}/${name}`)]);
}

describe('the layout tree in docs/ARCHITECTURE.md', () => {
  const named = treeFolders(readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'));

  it('reads nested folders by their indentation', () => {
    const tree =
      '## Layout\n\n```\na/\n  b/              why\n    c/\n  d/  x.ts\nfile.ts\n```\n## Next';
    expect(treeFolders(tree)).toEqual(['a', 'a/b', 'a/b/c', 'a/d']);
  });

  it('names only folders that exist', () => {
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((folder) => !existsSync(join(ROOT, folder)))).toEqual([]);
  });

  it('names every folder under src-main and src-renderer', () => {
    const all = [
      'src-main',
      'src-renderer',
      ...foldersUnder('src-main'),
      ...foldersUnder('src-renderer'),
    ];
    expect(all.filter((folder) => !named.includes(folder))).toEqual([]);
  });
});
