/**
 * Text from a file (span and counter names, notices, file names, error messages) on its way to a
 * terminal: every character a terminal could act on is written as an escape instead, so a trace
 * cannot retitle the window (OSC 0), clear the screen (CSI 2J), plant a hyperlink (OSC 8),
 * overwrite a line with `\r` or forge a line of our output with a newline.
 *
 * Escaped: C0 controls and DEL (`\x1b`, and `\n`, `\r`, `\t` by name), C1 controls
 * (`\x9b` is CSI on some terminals) and the Unicode bidirectional and line-separator controls
 * (`\u202e`), which reorder or break what a reader sees. `--json` needs none of this: JSON
 * escapes controls itself.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const UNSAFE_EXCEPT_NEWLINE =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One field from a file, safe for a terminal: a newline in it is `\n`, never a new line. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/**
 * A printer's whole text, lines joined by newlines, made safe once more where it is written:
 * its own newlines stay, anything else a field could have carried is escaped.
 */
export function terminalLines(text: string): string {
  return text.replace(UNSAFE_EXCEPT_NEWLINE, escapeOne);
}
