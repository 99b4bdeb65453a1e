import { KeyList, KeyView, KidParams, RotateKeyBody, type KeyUse } from './admin-keys.js';
import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_KEY_REVOKE_PATH, ADMIN_KEY_ROTATE_PATH, ADMIN_KEYS_PATH } from './paths.js';

const tags = ['Keys'];

/** The signing and encryption keys in service (never a private half), and their rotation. */
export const KEY_ENDPOINTS = {
  list: adminEndpoint({
    method: 'GET',
    path: ADMIN_KEYS_PATH,
    operationId: 'listKeys',
    tags,
    summary: 'The keys in service',
    status: 200,
    answer: KeyList,
    permission: 'read',
    cli: 'keys list',
    send: () => ({}),
  }),
  /** Makes a new key of `use` active; the old one keeps working for its grace period. */
  rotate: adminEndpoint({
    method: 'POST',
    path: ADMIN_KEY_ROTATE_PATH,
    operationId: 'rotateKey',
    tags,
    summary: 'Make a new key active; the old one works for its grace period',
    body: RotateKeyBody,
    status: 201,
    answer: KeyView,
    permission: 'keys.write',
    audit: 'key.rotate',
    uncheckedBecause: 'an emergency rotation must not wait for a second operator; the old key keeps working for its grace period',
    cli: 'keys rotate',
    send: (use: KeyUse) => ({ body: { use } }),
  }),
  /** Drops a key at once (POST /admin/v1/keys/{kid}/revoke): its tokens and JWEs are refused on every instance. */
  revoke: adminEndpoint({
    method: 'POST',
    path: ADMIN_KEY_REVOKE_PATH,
    operationId: 'revokeKey',
    tags,
    summary: 'Drop a key at once: its tokens and JWEs are refused on every instance',
    description: 'Maker-checker action `key.revoke`: when it needs approval, the answer is 202 with a proposal.',
    params: KidParams,
    status: 200,
    answer: KeyView,
    permission: 'keys.write',
    audit: 'key.revoke',
    checked: 'key.revoke',
    cli: 'keys revoke',
    send: (kid: string) => ({ params: { kid } }),
  }),
};
