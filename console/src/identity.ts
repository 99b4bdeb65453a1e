import type { AdminIdentity } from '@partner-gateway/contract/admin-operators';
import type { Permission } from '@partner-gateway/contract/admin-permissions';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** Who is signed in: what the header shows and what the pages offer (a control the role cannot use is not shown). */
export const IdentityContext = createContext<AdminIdentity | null>(null);

export function useIdentity(): AdminIdentity | null {
  return useContext(IdentityContext);
}

/** Whether the signed-in operator's role holds `permission` (the server checks again; this only hides what would be refused). */
export function useCan(permission: Permission): boolean {
  return useIdentity()?.permissions.includes(permission) ?? false;
}

/** How the console names a role. */
export const ROLE_LABELS = { viewer: 'viewer', operator: 'operator', security: 'security' } as const;
