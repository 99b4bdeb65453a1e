import { PartnerView } from '@partner-gateway/contract/admin-partners';
import type { PartnerJwksView, PartnerKeyView } from '@partner-gateway/contract/admin-partner-keys';
import type { Entity } from '../db/field-map.js';
import type { PartnerKey } from './partner-keys.js';
import type { PartnerFields } from './partner-repository.js';
import { toPartnerCertificatesView } from './partner-certificates-view.js';

/**
 * A partner as the domain sees it: a plain object, no SQL, no framework. Its fields are the partners table's
 * field map (`partnerFields` in partner-repository.ts), which drives the partner's insert, update and read.
 */
export type Partner = Entity<PartnerFields>;

/** The view's fields that are not a partner field under the same name: each is built here (some from the reward type catalogue). */
const BUILT_VIEW_FIELDS = {
  requireSenderConstrainedTokens: (partner: Partner) => partner.requireBoundTokens,
  jwks: (partner: Partner) => toPartnerJwksView(partner),
  certificates: (partner: Partner) => toPartnerCertificatesView(partner),
  unknownRewardTypes: (partner: Partner, rewardTypes: ReadonlySet<string>) => unknownRewardTypes(partner.rewardTypes, rewardTypes),
} satisfies { [K in keyof PartnerView]?: (partner: Partner, rewardTypes: ReadonlySet<string>) => PartnerView[K] };

type CopiedViewField = Exclude<keyof PartnerView, keyof typeof BUILT_VIEW_FIELDS>;
/** A stored value as JSON carries it: a time as its ISO string. */
type OnTheWire<T> = T extends Date ? string : T;
/** The view fields that are not the partner's field of the same name and (wire) type: none, or the compiler says which. */
type UncopiableViewField = { [K in CopiedViewField]: K extends keyof Partner ? (OnTheWire<Partner[K]> extends PartnerView[K] ? never : K) : K }[CopiedViewField];
/** Fails to compile, naming the field, when a view field is neither built above nor a partner field of its name and type. */
const everyViewFieldIsCopiable: [UncopiableViewField] extends [never] ? true : UncopiableViewField = true;
const COPIED_VIEW_FIELDS = Object.keys(PartnerView.properties).filter((key) => !(key in BUILT_VIEW_FIELDS)) as CopiedViewField[];
void everyViewFieldIsCopiable;

/**
 * What the admin API shows of a partner: the contract's PartnerView, each field copied from the partner field of
 * the same name (a time as its ISO string) or built by BUILT_VIEW_FIELDS. Never the password hash, and not the
 * token generation (an internal counter that only says sessions were ended; operators see that in the audit
 * trail): PartnerView names neither. `rewardTypes` is the catalogue (REWARD_TYPES): a stored type outside it is
 * listed in `unknownRewardTypes`.
 */
export function toPartnerView(partner: Partner, rewardTypes: ReadonlySet<string>): PartnerView {
  const view: Record<string, unknown> = {};
  for (const key of COPIED_VIEW_FIELDS) {
    const value: unknown = partner[key];
    view[key] = value instanceof Date ? value.toISOString() : value;
  }
  for (const [key, build] of Object.entries(BUILT_VIEW_FIELDS)) view[key] = (build as (partner: Partner, rewardTypes: ReadonlySet<string>) => unknown)(partner, rewardTypes);
  return view as PartnerView;
}

/** The partner's keys as the admin API shows them (never more than the public key's identity), or null. */
export function toPartnerJwksView(partner: Pick<Partner, 'jwks' | 'jwksUri' | 'jwksFetchedAt'>): PartnerJwksView | null {
  if (partner.jwks === null && partner.jwksUri === null) return null;
  return {
    keys: (partner.jwks ?? []).map(toPartnerKeyView),
    jwksUri: partner.jwksUri,
    fetchedAt: partner.jwksFetchedAt?.toISOString() ?? null,
  };
}

export function toPartnerKeyView(key: PartnerKey): PartnerKeyView {
  const kty = key.jwk.kty as PartnerKeyView['kty'];
  return {
    kid: key.kid,
    kty,
    ...(kty === 'RSA' ? { size: Number(key.strength) } : { crv: key.strength }),
    alg: key.alg,
    thumbprint: key.thumbprint,
    ...(key.expiresAt !== undefined ? { expiresAt: key.expiresAt } : {}),
  };
}

/**
 * The types of `types` that the reward type catalogue (REWARD_TYPES) does not list, in their stored order.
 *
 * @example
 * ```ts
 * unknownRewardTypes(['sbp', 'spb'], new Set(['sbp'])); // ['spb']
 * ```
 */
export function unknownRewardTypes(types: readonly string[], catalogue: ReadonlySet<string>): string[] {
  return types.filter((type) => !catalogue.has(type));
}
