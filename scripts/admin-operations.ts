import { ADMIN_ENDPOINTS, listEndpoints } from '@partner-gateway/contract/admin-endpoints';
import { OPERATOR_ROLES, rolesWith } from '@partner-gateway/contract/admin-permissions';

/** A table cell: pipes escaped, on one line. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * docs/admin-operations.md, made from the contract's endpoint declarations (ADMIN_ENDPOINTS): one row per admin
 * operation with its permission, the roles holding it, its maker-checker action, its audit action, the admin
 * client's method and the CLI command. `npx tsx scripts/write-admin-operations.ts` writes it; a test fails when
 * the committed file differs.
 */
export function adminOperationsReference(): string {
  const rows = listEndpoints(ADMIN_ENDPOINTS).map(({ name, endpoint }) => {
    const { permission } = endpoint;
    const holders = permission === 'public' ? OPERATOR_ROLES : rolesWith(permission);
    const roles = OPERATOR_ROLES.map((role) => (holders.includes(role) ? '✓' : ''));
    const self = endpoint.selfService === undefined ? '' : ' (or the operator itself)';
    return `| \`${endpoint.method} ${endpoint.path}\` | ${cell(endpoint.summary)} | \`${endpoint.permission}\`${self} | ${roles.join(' | ')} | ${endpoint.checked ? `\`${endpoint.checked}\`` : endpoint.uncheckedBecause ? `no: ${cell(endpoint.uncheckedBecause)}` : ''} | ${endpoint.audit ? `\`${endpoint.audit}\`` : ''} | \`${name}\` | ${endpoint.cli ? `\`partner-gateway ${cell(endpoint.cli)}\`` : ''} |`;
  });
  return [
    '# Admin operations',
    '',
    '<!-- Generated from the contract\'s endpoint declarations by `npx tsx scripts/write-admin-operations.ts`; edit the declaration, not this file. -->',
    '',
    'Every operation of the admin API, as `packages/contract/src/admin-endpoints.ts` declares it: the permission it',
    'needs and the roles holding it ([roles](admin.md#roles)), the maker-checker action it submits (an answer may then',
    'be 202 with a proposal: [maker-checker](admin.md#maker-checker)), the audit action it records, the admin client\'s',
    'method (`createAdminApi`, used by the CLI and the console) and the CLI command that makes the call.',
    '',
    `| Operation | What it does | Permission | ${OPERATOR_ROLES.join(' | ')} | Maker-checker | Audit | Client | CLI |`,
    `|---|---|---|${OPERATOR_ROLES.map(() => '---').join('|')}|---|---|---|---|`,
    ...rows,
    '',
  ].join('\n');
}
