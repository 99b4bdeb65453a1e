import type { AdminEndpoint } from './admin-endpoint.js';
import { APPROVAL_ENDPOINTS } from './admin-approval-endpoints.js';
import { AUDIT_ENDPOINTS, AUDIT_EXPORT_ENDPOINT } from './admin-audit-endpoints.js';
import { BANK_ADMISSION_ENDPOINTS } from './admin-bank-admission-endpoints.js';
import { BANK_ENDPOINTS } from './admin-bank-endpoints.js';
import { BANK_PARTICIPANT_ENDPOINTS } from './admin-bank-participant-endpoints.js';
import { BANK_SYNC_ENDPOINTS } from './admin-bank-sync-endpoints.js';
import { BACKUP_ENDPOINT } from './admin-backup-endpoint.js';
import { KEY_ENDPOINTS } from './admin-key-endpoints.js';
import { OPERATOR_ENDPOINTS } from './admin-operator-endpoints.js';
import { PARTNER_ENDPOINTS } from './admin-partner-endpoints.js';
import { PARTNER_USER_ENDPOINTS } from './admin-partner-user-endpoints.js';
import { SESSION_ENDPOINTS } from './admin-session-endpoints.js';
import { WEBHOOK_ENDPOINTS } from './admin-webhook-endpoints.js';

/** A group of endpoints (or of groups), as the admin client names them. */
export interface EndpointTree {
  readonly [name: string]: AdminEndpoint | EndpointTree;
}

/**
 * Every admin API endpoint, by the name the admin client gives it (`admin.keys.revoke(kid)`): the routes, the
 * client, docs/admin-operations.md and the role tests all come from this tree.
 */
export const ADMIN_ENDPOINTS = {
  partners: PARTNER_ENDPOINTS,
  banks: BANK_ENDPOINTS,
  bankSync: BANK_SYNC_ENDPOINTS,
  bankAdmissions: BANK_ADMISSION_ENDPOINTS,
  bankParticipants: BANK_PARTICIPANT_ENDPOINTS,
  webhooks: WEBHOOK_ENDPOINTS,
  partnerUsers: PARTNER_USER_ENDPOINTS,
  keys: KEY_ENDPOINTS,
  audit: { ...AUDIT_ENDPOINTS, export: AUDIT_EXPORT_ENDPOINT },
  backup: BACKUP_ENDPOINT,
  operators: OPERATOR_ENDPOINTS,
  approvals: APPROVAL_ENDPOINTS,
  session: SESSION_ENDPOINTS,
} satisfies EndpointTree;

/** Whether a tree's entry is an endpoint rather than a group. */
export function isEndpoint(value: AdminEndpoint | EndpointTree): value is AdminEndpoint {
  return typeof value.send === 'function';
}

/**
 * Every endpoint of a tree with its client name, in the tree's order.
 *
 * @example
 * ```ts
 * listEndpoints(ADMIN_ENDPOINTS).find(({ name }) => name === 'keys.revoke')?.endpoint.checked; // 'key.revoke'
 * ```
 */
export function listEndpoints(tree: EndpointTree, prefix = ''): Array<{ name: string; endpoint: AdminEndpoint }> {
  return Object.entries(tree).flatMap(([name, value]) => (isEndpoint(value) ? [{ name: `${prefix}${name}`, endpoint: value }] : listEndpoints(value, `${prefix}${name}.`)));
}
