import { AdminIdentity, SessionView, SignInOptions } from './admin-operators.js';
import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_ME_PATH, ADMIN_SESSION_PATH, ADMIN_SIGN_IN_PATH } from './paths.js';

const tags = ['Operators'];

/** Who the credential acts as, and the console's sign-in. */
export const SESSION_ENDPOINTS = {
  me: adminEndpoint({
    method: 'GET',
    path: ADMIN_ME_PATH,
    operationId: 'getMe',
    tags,
    summary: 'Who this credential acts as: operator, role, credential and permissions',
    status: 200,
    answer: AdminIdentity,
    permission: 'read',
    cli: 'operator whoami',
    send: () => ({}),
  }),
  /** The console's single sign-on session (its cookie); 401 without one. */
  get: adminEndpoint({
    method: 'GET',
    path: ADMIN_SESSION_PATH,
    operationId: 'getSession',
    tags,
    summary: "The console's single sign-on session: who, its CSRF token and its timeouts (404 with a bearer credential)",
    description: 'Authenticated by the session cookie the sign-in set (HttpOnly, Secure, SameSite=Strict). Changes made with the cookie must send `X-CSRF-Token`.',
    status: 200,
    answer: SessionView,
    permission: 'read',
    send: () => ({}),
  }),
  signOut: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_SESSION_PATH,
    operationId: 'signOut',
    tags,
    summary: 'Sign out: the session ends on every instance and its cookie is refused from now on',
    status: 204,
    answer: { type: 'null', description: 'Signed out' },
    permission: 'read',
    audit: 'session.sign-out',
    uncheckedBecause: 'ending one\'s own session must never wait',
    send: () => ({}),
  }),
  signInOptions: adminEndpoint({
    method: 'GET',
    path: ADMIN_SIGN_IN_PATH,
    operationId: 'getSignInOptions',
    tags,
    summary: 'How the console may sign in (no credential needed)',
    status: 200,
    answer: SignInOptions,
    permission: 'public',
    send: () => ({}),
  }),
};
