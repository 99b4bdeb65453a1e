import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeText } from './decode-text.js';
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
 * Reads a Bank of Russia BIC directory (ED807) and keeps the banks that can receive SBP transfers: entries
 * whose ParticipantInfo is a head office (PtType 20) with an SBP service code (Srvcs 4, 5 or 6), an active
 * status (PSAC) and no RstrList restriction. The bytes are decoded as the XML declaration says (the Bank of
 * Russia publishes Windows-1251); names have their XML entities decoded.
 */
export function parseEd807(bytes: Uint8Array): ParseResult {
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
  const directory = document.ED807?.BICDirectoryEntry ?? [];
  const selected = directory.filter(isSbpHeadOffice);
  return {
    entries: selected.map((entry) => ({ bic: entry.BIC, name: entry.ParticipantInfo?.NameP, nameEn: entry.ParticipantInfo?.EnglName })),
    where: (index) => `entry BIC ${selected[index]?.BIC ?? '?'}`,
  };
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
