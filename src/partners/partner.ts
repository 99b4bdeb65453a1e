import type { AuthMethod, PartnerStatus, PartnerView } from '@partner-gateway/contract/admin-partners';
import type { PartnerJwksView, PartnerKeyView } from '@partner-gateway/contract/admin-partner-keys';
import type { PartnerKey } from './partner-keys.js';
import type { RegisteredCertificate } from './partner-certificates.js';
import { toPartnerCertificatesView } from './partner-certificates-view.js';

/** A partner as the domain sees it: a plain object, no SQL, no framework. */
export interface Partner {
  id: string;
  login: string;
  passwordHash: string;
  status: PartnerStatus;
  /** Normalized CIDRs (`10.0.0.0/24`, `2001:db8::/32`); an empty list allows no address. */
  ipAllowlist: string[];
  rewardTypes: string[];
  /** Moves on when the partner is blocked or gets a new password: every token issued before stops working. */
  tokenGeneration: number;
  /** How the partner may authenticate; without `password`, its password is refused everywhere. */
  authMethods: AuthMethod[];
  /** Every token it gets must be bound to its key (DPoP): no bearer token is ever issued to it. */
  requireBoundTokens: boolean;
  /** Its public keys: registered, or the set last fetched from `jwksUri`; null when it has none. */
  jwks: PartnerKey[] | null;
  /** Where the partner publishes its keys, when it does (the keys are then fetched, see createRemoteJwks). */
  jwksUri: string | null;
  /** When a fetch of `jwksUri` last succeeded. */
  jwksFetchedAt: Date | null;
  /** Its registered client certificates (self_signed_tls_client_auth); null when it has none. */
  certificates: RegisteredCertificate[] | null;
  /** The subject DN (normalized RFC 4514) of its CA-issued certificates (tls_client_auth); null when none. */
  subjectDn: string | null;
  createdAt: Date;
  updatedAt: Date;
}


/**
 * What the admin API shows of a partner, field by field: never the password hash, and not the token
 * generation (an internal counter that only says sessions were ended; operators see that in the audit trail).
 * A field added to the contract's PartnerView fails to compile here until it is mapped.
 */
export function toPartnerView(partner: Partner): PartnerView {
  return {
    id: partner.id,
    login: partner.login,
    status: partner.status,
    ipAllowlist: partner.ipAllowlist,
    rewardTypes: partner.rewardTypes,
    authMethods: partner.authMethods,
    requireSenderConstrainedTokens: partner.requireBoundTokens,
    jwks: toPartnerJwksView(partner),
    certificates: toPartnerCertificatesView(partner),
    createdAt: partner.createdAt.toISOString(),
    updatedAt: partner.updatedAt.toISOString(),
  };
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

function toPartnerKeyView(key: PartnerKey): PartnerKeyView {
  const kty = key.jwk.kty as PartnerKeyView['kty'];
  return {
    kid: key.kid,
    kty,
    ...(kty === 'RSA' ? { size: Number(key.strength) } : { crv: key.strength }),
    alg: key.alg,
    thumbprint: key.thumbprint,
  };
}
