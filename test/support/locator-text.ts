import type { Locator } from 'playwright-core';
import { waitFor } from './wait-for.js';

/** Waits until the locator's text (its first match, trimmed) matches `pattern`, and returns it: the console tests' one wait for a text. */
export async function textOf(locator: Locator, pattern: RegExp, timeout = 10_000): Promise<string> {
  let text = '';
  await waitFor(
    async () => {
      const current = await locator.first().textContent({ timeout: 1_000 }).catch(() => null);
      if (current !== null) text = current.trim();
      return pattern.test(text);
    },
    { timeout, interval: 50, message: () => `${pattern} in ${JSON.stringify(text)}` },
  );
  return text;
}
