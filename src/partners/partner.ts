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

export type PartnerStatus = 'active' | 'blocked';

/** What the admin API shows: everything but the password hash. */
export type PartnerView = Omit<Partner, 'passwordHash'>;

/** The reward type the banks operation requires. */
export const SBP_REWARD_TYPE = 'sbp';

export function toPartnerView(partner: Partner): PartnerView {
  const { passwordHash: _hash, ...view } = partner;
  return view;
}
