import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeText } from './decode-text.js';
import { MAX_LISTED_PROBLEMS, type ErrorDetail } from '../../errors.js';
import { validateBank } from '../bank.js';
import type { RegistryEntry } from '../merge-registry.js';
import type { ParseResult } from './parse-bank-json.js';

export const ED807_NAMESPACE = 'urn:cbr-ru:ed:v2.0';
/** PtType 20: a credit organization's head office (30 would be a branch). */
const HEAD_OFFICE = '20';
/** Srvcs codes that include the fast payment system: 4 urgent + SBP, 5 urgent + non-urgent + SBP, 6 SBP only. */
const SBP_SERVICES = new Set(['4', '5', '6']);
const ACTIVE = 'PSAC';

interface ParticipantInfo {
  NameP?: string;
  EnglName?: string;
  PtType?: string;
  Srvcs?: string;
  ParticipantStatus?: string;
  RstrList?: unknown[];
}

interface DirectoryEntry {
  BIC?: string;
  ParticipantInfo?: ParticipantInfo;
}

/**
 * Reads a Bank of Russia BIC directory (ED807) as the registry it is: every head office (PtType 20) with its
 * registry facts, `sbpParticipant` true for one that can receive SBP transfers (an SBP service code, Srvcs 4, 5 or
 * 6, an active status, PSAC, and no RstrList restriction). The bytes are decoded as the XML declaration says (the
 * Bank of Russia publishes Windows-1251); names have their XML entities decoded. An SBP head office whose BIC or
 * name is unusable is a problem (the directory is refused whole); other head offices need only a BIC.
 *
 * @example
 * ```ts
 * const read = parseEd807Registry(await readFile('20230518_ED807_full.xml'));
 * if ('entries' in read) mergeRegistry(current, read.entries);
 * ```
 */
export function parseEd807Registry(bytes: Uint8Array): { entries: RegistryEntry[] } | { problems: ErrorDetail[]; total?: number } {
  const read = readDirectory(bytes);
  if ('problems' in read) return read;
  const entries: RegistryEntry[] = [];
  const problems: ErrorDetail[] = [];
  let total = 0;
  for (const entry of read.directory) {
    if (entry.ParticipantInfo?.PtType !== HEAD_OFFICE || typeof entry.BIC !== 'string') continue;
    const sbpParticipant = isSbpHeadOffice(entry);
    const checked = validateBank({ bic: entry.BIC, name: entry.ParticipantInfo.NameP ?? entry.BIC, nameEn: entry.ParticipantInfo.EnglName }, `entry BIC ${entry.BIC}`);
    if ('problems' in checked) {
      if (sbpParticipant) {
        total += checked.problems.length;
        if (problems.length < MAX_LISTED_PROBLEMS) problems.push(...checked.problems);
      }
      continue;
    }
    entries.push({ bic: checked.bank.bic, registryName: checked.bank.name, nameEn: checked.bank.nameEn ?? null, sbpParticipant });
  }
  return total > 0 ? { problems: problems.slice(0, MAX_LISTED_PROBLEMS), total } : { entries };
}

/**
 * Reads an ED807 directory as an import file: the banks that can receive SBP transfers (see parseEd807Registry),
 * each `{bic, name, nameEn}` with the registry's names.
 */
export function parseEd807(bytes: Uint8Array): ParseResult {
  const read = readDirectory(bytes);
  if ('problems' in read) return read;
  const selected = read.directory.filter(isSbpHeadOffice);
  return {
    entries: selected.map((entry) => ({ bic: entry.BIC, name: entry.ParticipantInfo?.NameP, nameEn: entry.ParticipantInfo?.EnglName })),
    where: (index) => `entry BIC ${selected[index]?.BIC ?? '?'}`,
  };
}

function readDirectory(bytes: Uint8Array): { directory: DirectoryEntry[] } | { problems: ErrorDetail[] } {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const charset = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1] ?? 'utf-8';
  let xml: string;
  try {
    xml = decodeText(bytes, charset);
  } catch (error) {
    return { problems: [{ field: 'body', message: (error as Error).message }] };
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    return { problems: [{ line: valid.err.line, message: `not well-formed XML: ${valid.err.msg}` }] };
  }
  const root = /<(?:[\w-]+:)?ED807\b[^>]*>/.exec(xml)?.[0];
  if (!root) return { problems: [{ field: 'body', message: 'not an ED807 BIC directory: no ED807 root element' }] };
  if (!root.includes(`"${ED807_NAMESPACE}"`) && !root.includes(`'${ED807_NAMESPACE}'`)) {
    return { problems: [{ field: 'body', message: `the ED807 element is not in the ${ED807_NAMESPACE} namespace` }] };
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseAttributeValue: false,
    parseTagValue: false,
    isArray: (name) => name === 'BICDirectoryEntry' || name === 'RstrList',
  });
  let document: { ED807?: { BICDirectoryEntry?: DirectoryEntry[] } };
  try {
    document = parser.parse(xml) as typeof document;
  } catch (error) {
    // Well-formed XML the parser still refuses: an external entity, a broken DOCTYPE, or an element or
    // attribute named __proto__, constructor or prototype.
    return { problems: [{ field: 'body', message: `not a readable ED807 directory: ${(error as Error).message}` }] };
  }
  return { directory: document.ED807?.BICDirectoryEntry ?? [] };
}

function isSbpHeadOffice(entry: DirectoryEntry): boolean {
  const info = entry.ParticipantInfo;
  return (
    info !== undefined &&
    info.PtType === HEAD_OFFICE &&
    SBP_SERVICES.has(info.Srvcs ?? '') &&
    info.ParticipantStatus === ACTIVE &&
    (info.RstrList === undefined || info.RstrList.length === 0)
  );
}
