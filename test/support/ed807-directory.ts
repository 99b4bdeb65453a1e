import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { projectFile } from '../../src/project-root.js';
import { DEFAULT_EXCLUSION_RULES, matchingRule } from '../../src/banks/admission/exclusion-rules.js';
import { parseEd807Registry } from '../../src/banks/import/parse-ed807.js';

/** The real Bank of Russia directory of 18 May 2023 (Windows-1251, 1627 entries), from ../shared/data. */
export const ED807_MAY_2023 = projectFile('../shared/data/20230518_ED807_full.xml');

/**
 * The May 2023 directory changed as a registry changes: `leaves` stops offering SBP (Srvcs 5 -> 3), `joins` (one or more) start
 * (its Srvcs -> 5), and `renamed` gets ` (renamed)` appended to its registry name. Edited as Latin-1 text, so the
 * Windows-1251 bytes of every other name stay exactly as they were.
 */
export function changedDirectory(change: { leaves: string; joins: string | readonly string[]; renamed: string }): Buffer {
  return editDirectory((edit) => {
    edit(change.leaves, (attributes) => attributes.replace(/Srvcs="[456]"/, 'Srvcs="3"'));
    for (const joins of typeof change.joins === 'string' ? [change.joins] : change.joins) edit(joins, (attributes) => attributes.replace(/Srvcs="\d"/, 'Srvcs="5"'));
    edit(change.renamed, (attributes) => attributes.replace(/NameP="([^"]*)"/, 'NameP="$1 (renamed)"'));
  });
}

/** The May 2023 directory with these head offices no longer offering SBP (Srvcs -> 3), as a registry outage or a cut file would look. */
export function directoryWithout(bics: readonly string[]): Buffer {
  return editDirectory((edit) => {
    for (const bic of bics) edit(bic, (attributes) => attributes.replace(/Srvcs="[456]"/, 'Srvcs="3"'));
  });
}

/** The BICs of the May 2023 directory's SBP head offices (PtType 20, Srvcs 4-6, active, no restriction), in its order. */
export function sbpHeadOffices(): string[] {
  const text = readFileSync(ED807_MAY_2023).toString('latin1');
  const entries = text.split('<BICDirectoryEntry ').slice(1);
  return entries
    .filter((entry) => /PtType="20"/.test(entry) && /Srvcs="[456]"/.test(entry) && /ParticipantStatus="PSAC"/.test(entry) && !/<(?:\w+:)?RstrList/.test(entry.split('</BICDirectoryEntry>')[0]!))
    .map((entry) => /^BIC="(\d{9})"/.exec(entry)![1]!);
}

/**
 * The BICs of the May 2023 directory's SBP head offices the default exclusion rules keep out (non-bank credit
 * organisations, the Interstate Bank): 11, never published by a merge, even with BANKS_AUTO_ADMIT.
 */
export function excludedByDefault(): Set<string> {
  const read = parseEd807Registry(readFileSync(ED807_MAY_2023));
  if (!('entries' in read)) throw new Error('the May 2023 directory did not parse');
  return new Set(read.entries.filter((entry) => entry.sbpParticipant && matchingRule(entry, DEFAULT_EXCLUSION_RULES)).map((entry) => entry.bic));
}

/** A directory packed as the Bank of Russia publishes it: a ZIP holding the one XML file. */
export function zipped(xml: Uint8Array, name = '20230518_ED807_full.xml'): Buffer {
  return Buffer.from(zipSync({ [name]: xml }));
}

function editDirectory(edits: (edit: (bic: string, rewrite: (participantInfo: string) => string) => void) => void): Buffer {
  let text = readFileSync(ED807_MAY_2023).toString('latin1');
  edits((bic, rewrite) => {
    const pattern = new RegExp(`(<BICDirectoryEntry BIC="${bic}"><ParticipantInfo )([^>]*)>`);
    if (!pattern.test(text)) throw new Error(`no entry ${bic} in the directory`);
    text = text.replace(pattern, (_all, open: string, attributes: string) => `${open}${rewrite(attributes)}>`);
  });
  return Buffer.from(text, 'latin1');
}
