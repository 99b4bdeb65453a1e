/**
 * Russian legal forms as the Bank of Russia directory writes them, in a head office's registry name: a whole word,
 * anywhere (before, after, in parentheses). Banking kinds (`КБ`, `АКБ`, `НКО`) are part of a name partners know
 * (`КБ "Пойдём!"`), so they stay.
 */
const LEGAL_FORMS = new Set(['ООО', 'АО', 'ПАО', 'ЗАО', 'ОАО', 'НАО']);
const QUOTES = /["«»„“”]/g;
/** A word as the rule sees it: letters, digits and the punctuation inside a name (`МБА-МОСКВА`, `Деньги.Мэйл.Ру`). */
const WORD = /[^\s()]+/g;

/**
 * The display name a registry bank is suggested with: its registry name without the legal form and without
 * quotes, spaces collapsed; the registry name itself when nothing would be left.
 *
 * @example
 * ```ts
 * suggestDisplayName('ООО "ФФИН Банк"'); // 'ФФИН Банк'
 * suggestDisplayName('"Банк "МБА-МОСКВА" ООО'); // 'Банк МБА-МОСКВА'
 * suggestDisplayName('КИВИ Банк (АО)'); // 'КИВИ Банк'
 * ```
 */
export function suggestDisplayName(registryName: string): string {
  const unquoted = registryName.replace(QUOTES, ' ');
  const kept = (unquoted.match(WORD) ?? []).filter((word) => !LEGAL_FORMS.has(word.toUpperCase()));
  // Parentheses held only the legal form (`(АО)`); a parenthesised part that holds more keeps its words.
  const suggested = kept.join(' ').replace(/\s+/g, ' ').trim();
  return suggested.length > 0 ? suggested : registryName.trim();
}
