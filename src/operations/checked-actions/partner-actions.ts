import { auditablePartner, type PartnerView } from '@partner-gateway/contract/admin-partners';
import type { SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import type { SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import { PARTNER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-endpoints';
import type { Permission } from '@partner-gateway/contract/admin-permissions';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { PartnerAdmin, PartnerCreation, PartnerUpdate } from '../../partners/partner-admin.js';
import type { PartnerCertificateAdmin } from '../../partners/partner-certificate-admin.js';
import type { PartnerKeyAdmin } from '../../partners/partner-key-admin.js';

/**
 * The permission each field of a partner change needs to be made or approved: the route's own declaration
 * (PARTNER_ENDPOINTS.update.fieldPermissions, a credential field the security role's), its permission for any
 * other field. The stored change holds the password as `passwordHash`: the body's `password`, hashed.
 */
const UPDATE_FIELD_PERMISSIONS: Readonly<Partial<Record<string, Permission>>> = PARTNER_ENDPOINTS.update.fieldPermissions;
const fieldPermission = (field: string): Permission => UPDATE_FIELD_PERMISSIONS[field === 'passwordHash' ? 'password' : field] ?? PARTNER_ENDPOINTS.update.permission;

/** A partner's state as a proposal depends on it: any change to the partner moves it. */
const baseOf = (partner: PartnerView) => `${partner.id}@${partner.updatedAt}`;

/**
 * The partner actions maker-checker can hold: creating a partner (it can call at once from its allowlist),
 * changing or removing one, and registering its public keys or client certificates (whoever holds the matching
 * private key can then act as the partner: the classic insider takeover a second pair of eyes stops).
 */
export function partnerActions(partners: PartnerAdmin, keys: PartnerKeyAdmin, certificates: PartnerCertificateAdmin): CheckedAction[] {
  const createPartner: CheckedAction<PartnerCreation, PartnerView> = {
    action: 'partner.create',
    permission: 'partners.write',
    description: 'Create a partner (it can call at once from its allowlist, with its first password)',
    shownRequest: ({ passwordHash: _hash, ...settings }) => ({ ...settings, password: '(its first password, kept hashed)' }),
    // Nothing exists yet: the base is the login being free, which preview checks (409 once it is taken).
    async preview(input) {
      const { passwordHash: _hash, ...settings } = await partners.previewCreate(input);
      return { target: `partner ${input.login}`, preview: { created: settings }, base: `free:${input.login}`, partner: input.login };
    },
    async apply(input, context) {
      context.audit.partner = input.login;
      const created = await partners.createHashed(input);
      context.audit.details = { ...context.audit.details, after: auditablePartner(created) };
      return created;
    },
  };
  const updatePartner: CheckedAction<{ login: string; body: PartnerUpdate }, PartnerView> = {
    action: 'partner.update',
    permission: 'partners.write',
    description: "Change a partner: status, IP allowlist, reward types, password, methods (a block or a new password ends its sessions)",
    permissionsFor: ({ body }) => [...new Set(Object.keys(body).map(fieldPermission))],
    shownRequest: ({ login, body: { passwordHash, ...body } }) => ({ login, body: passwordHash === undefined ? body : { ...body, password: '(a new password, kept hashed)' } }),
    // The change as update would make it, checked now: a proposal that would be refused is refused when proposed.
    async preview({ login, body }) {
      const { before, after, sessionsEnded } = await partners.previewUpdate(login, body);
      const passwordChanged = body.passwordHash !== undefined;
      return { target: `partner ${login}`, preview: { before: auditablePartner(before), after: auditablePartner(after), passwordChanged, sessionsEnded }, base: baseOf(before), partner: login };
    },
    async apply({ login, body }, context) {
      context.audit.partner = login;
      const { before, after, sessionsEnded } = await partners.update(login, body);
      context.audit.details = { ...context.audit.details, before: auditablePartner(before), after: auditablePartner(after), passwordChanged: body.passwordHash !== undefined, sessionsEnded };
      return after;
    },
  };
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
  return [createPartner, updatePartner, deletePartner, setJwks, setCertificates];
}
