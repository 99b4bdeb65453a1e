/**
 * C0 controls, DEL, C1 controls, and the Unicode bidi controls (embeddings, overrides, isolates, marks):
 * everything that can move the cursor, rewrite what is on the terminal, or reorder what the operator reads.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escape = (character: string) => {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return named[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
};

/**
 * Text fit for the operator's terminal: every control character written out as an escape (`\n`, `\u001b`,
 * `\u202e`), so that a stored login carrying a newline and a forged row, or an escape sequence, prints as
 * what it is. With `keepNewlines`, line breaks stay (for output that is laid out in lines on purpose); a
 * value that must stay on its line (a table cell) is escaped without it.
 *
 * @example
 * ```ts
 * terminalSafe('acme\n2026-01-01 login success'); // 'acme\\n2026-01-01 login success'
 * ```
 */
export function terminalSafe(text: string, { keepNewlines = false } = {}): string {
  return text.replace(keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, escape);
}
