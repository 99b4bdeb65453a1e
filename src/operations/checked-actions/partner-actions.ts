import { auditablePartner, type PartnerView } from '@partner-gateway/contract/admin-partners';
import type { SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import type { SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { PartnerAdmin } from '../../partners/partner-admin.js';
import type { PartnerCertificateAdmin } from '../../partners/partner-certificate-admin.js';
import type { PartnerKeyAdmin } from '../../partners/partner-key-admin.js';

/** A partner's state as a proposal depends on it: any change to the partner moves it. */
const baseOf = (partner: PartnerView) => `${partner.id}@${partner.updatedAt}`;

/**
 * The partner actions maker-checker can hold: removing a partner (it loses access at once and its settings
 * are gone), and registering its public keys or client certificates (whoever holds the matching private key can
 * then act as the partner: the classic insider takeover a second pair of eyes stops).
 */
export function partnerActions(partners: PartnerAdmin, keys: PartnerKeyAdmin, certificates: PartnerCertificateAdmin): CheckedAction[] {
  const deletePartner: CheckedAction<{ login: string }, undefined> = {
    action: 'partner.delete',
    permission: 'partners.write',
    description: 'Remove a partner (its access ends at once)',
    async preview({ login }) {
      const partner = await partners.get(login);
      return { target: `partner ${login}`, preview: { removed: auditablePartner(partner) }, base: baseOf(partner), partner: login };
    },
    async apply({ login }, context) {
      context.audit.partner = login;
      context.audit.details = { ...context.audit.details, before: auditablePartner(await partners.remove(login)) };
      return undefined;
    },
  };
  const setJwks: CheckedAction<{ login: string; body: SetPartnerJwksBody }> = {
    action: 'partner.jwks.set',
    permission: 'partners.credentials',
    description: "Register a partner's public keys or JWK Set URL (whoever holds the private key can act as the partner)",
    async preview({ login, body }) {
      const { before, after, sessionsEnded, base } = await keys.preview(login, body);
      return { target: `partner ${login}`, preview: { before, after, sessionsEnded }, base, partner: login };
    },
    async apply({ login, body }, context) {
      context.audit.partner = login;
      const { before, after, sessionsEnded } = await keys.set(login, body);
      context.audit.details = { ...context.audit.details, before, after, sessionsEnded };
      // A successful registration always leaves keys or a URL, so the view is never null here.
      return after!;
    },
  };
  const setCertificates: CheckedAction<{ login: string; body: SetPartnerCertificatesBody }> = {
    action: 'partner.certificates.set',
    permission: 'partners.credentials',
    description: "Register a partner's client certificates or subject DN (whoever holds the certificate's key can act as the partner)",
    async preview({ login, body }) {
      const { before, after, sessionsEnded, base } = await certificates.preview(login, body);
      return { target: `partner ${login}`, preview: { before, after, sessionsEnded }, base, partner: login };
    },
    async apply({ login, body }, context) {
      context.audit.partner = login;
      const { before, after, sessionsEnded } = await certificates.set(login, body);
      context.audit.details = { ...context.audit.details, before, after, sessionsEnded };
      // A successful registration always leaves certificates or a subject, so the view is never null here.
      return after!;
    },
  };
  return [deletePartner, setJwks, setCertificates];
}
