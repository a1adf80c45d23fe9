/**
 * Text from a trace made safe for a CSV the `sql` command prints: a spreadsheet runs a cell that
 * starts with = + - @ (or tab, CR) as a formula, so such a cell gets a leading apostrophe, as
 * OWASP's CSV injection advice says, and control characters are shown as escapes (\x1b).
 * (A terminal's text: core/bytes/terminal-text.ts.)
 */

// C0 controls but tab and newline, DEL, C1 controls, and the line/paragraph separators
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

const escaped = (ch: string) => {
  const code = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\t') return '\\t';
  if (ch === '\r') return '\\r';
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** A CSV/TSV cell's text: controls escaped (newlines kept), a formula start defused. */
export function spreadsheetText(text: string): string {
  const safe = text.replace(CONTROL, escaped);
  return /^[=+\-@\t\r]/.test(text) ? `'${safe}` : safe;
}

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export function csvField(text: string): string {
  const safe = spreadsheetText(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
