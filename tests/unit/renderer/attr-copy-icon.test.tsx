import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AttrTable } from '../../../src-renderer/details/AttrTable';

// Each attribute's copy button is a drawn icon: its text glyph (U+29C9) is missing from common
// Linux fonts, and Debian's Chromium showed an empty box on every hovered row.
describe("an attribute's copy button", () => {
  it('draws its icon, with no character a font must have', () => {
    const html = renderToStaticMarkup(
      <AttrTable title="metadata" attrs={{ source: 'math', difficulty: 1 }} />,
    );
    const buttons = [
      ...html.matchAll(/<button[^>]*class="[^"]*attr-copy[^"]*"[^>]*>(.*?)<\/button>/g),
    ];
    expect(buttons).toHaveLength(2);
    for (const [, inner] of buttons) {
      expect(inner).toMatch(/^<svg[^>]*class="copy-icon"/);
      // what is left once the drawing is taken out: no text at all
      expect(inner.replace(/<svg.*<\/svg>/, '')).toBe('');
    }
    expect(html).toContain('title="Copy difficulty"');
  });
});
