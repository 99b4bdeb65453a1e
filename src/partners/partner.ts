import type { PartnerStatus, PartnerView } from '@partner-gateway/contract/admin-partners';

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
    createdAt: partner.createdAt.toISOString(),
    updatedAt: partner.updatedAt.toISOString(),
  };
}
