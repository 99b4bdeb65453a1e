import { readFileSync } from 'node:fs';
import { projectFile } from '../../src/project-root.js';

/** The real Bank of Russia directory of 18 May 2023 (Windows-1251, 1627 entries), from ../shared/data. */
export const ED807_MAY_2023 = projectFile('../shared/data/20230518_ED807_full.xml');

/**
 * The May 2023 directory changed as a registry changes: `leaves` stops offering SBP (Srvcs 5 -> 3), `joins` starts
 * (its Srvcs -> 5), and `renamed` gets ` (renamed)` appended to its registry name. Edited as Latin-1 text, so the
 * Windows-1251 bytes of every other name stay exactly as they were.
 */
export function changedDirectory(change: { leaves: string; joins: string; renamed: string }): Buffer {
  let text = readFileSync(ED807_MAY_2023).toString('latin1');
  const edit = (bic: string, rewrite: (participantInfo: string) => string) => {
    const pattern = new RegExp(`(<BICDirectoryEntry BIC="${bic}"><ParticipantInfo )([^>]*)>`);
    if (!pattern.test(text)) throw new Error(`no entry ${bic} in the directory`);
    text = text.replace(pattern, (_all, open: string, attributes: string) => `${open}${rewrite(attributes)}>`);
  };
  edit(change.leaves, (attributes) => attributes.replace(/Srvcs="[456]"/, 'Srvcs="3"'));
  edit(change.joins, (attributes) => attributes.replace(/Srvcs="\d"/, 'Srvcs="5"'));
  edit(change.renamed, (attributes) => attributes.replace(/NameP="([^"]*)"/, 'NameP="$1 (renamed)"'));
  return Buffer.from(text, 'latin1');
}
