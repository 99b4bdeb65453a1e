import { readFileSync } from 'node:fs';
import { projectFile } from '../project-root.js';
import { validateBankList, type Bank } from './bank.js';

/**
 * The default bank list shipped with the gateway (`seeds/sbp-banks.json`): SBP member banks with head-office
 * BICs checked against the Bank of Russia directory. It fills an empty registry on first start.
 */
export function loadDefaultBanks(): Bank[] {
  const parsed = JSON.parse(readFileSync(projectFile('seeds/sbp-banks.json'), 'utf8')) as { banks: unknown[] };
  const result = validateBankList(parsed.banks, (index) => `banks[${index}]`);
  if ('problems' in result) throw new Error(`seeds/sbp-banks.json is invalid: ${JSON.stringify(result.problems)}`);
  return result.banks;
}
