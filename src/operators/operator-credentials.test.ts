import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.js';
import { createOperatorCredentials } from './operator-credentials.js';
import type { Operator } from './operator-repository.js';
import type { OperatorToken } from './operator-token-repository.js';
import { secretHash } from './operator-secrets.js';

const DAY = 86_400_000;
const recorder = { note() {}, pending: () => undefined, flush: async () => {}, close: async () => {} };

function operator(changes: Partial<Operator> = {}): Operator {
  const at = new Date(0);
  return { id: 'op-1', name: 'sam', role: 'security', status: 'active', ssoIssuer: 'https://idp.example', ssoSubject: 'sam', createdBy: null, createdAt: at, updatedAt: at, lastUsedAt: null, lastSsoSignInAt: null, ssoDisabledAt: null, ...changes };
}

const TOKEN = 'pgw_a-token-for-the-unit-test';
const stored: OperatorToken = { id: 't-1', operatorId: 'op-1', label: 'laptop', tokenHash: secretHash(TOKEN), createdBy: 'op-1', issuedThrough: [], createdAt: new Date(0), expiresAt: new Date(400 * DAY), revokedAt: null, lastUsedAt: null };

function credentialsOver(read: () => Promise<Operator>, now: () => number) {
  return createOperatorCredentials({
    operators: { findById: read },
    tokens: { findByHash: async (hash) => (hash === stored.tokenHash ? stored : undefined) },
    sessions: { find: async () => undefined },
    usage: { tokens: recorder, operators: recorder, sessions: recorder },
    cacheTtlMs: 60_000,
    sessionIdleMs: 900_000,
    ssoSignInMaxAgeMs: 7 * DAY,
    now,
  });
}

describe('operator credentials', () => {
  it('when an SSO operator last signed in through SSO OIDC_TOKEN_SIGN_IN_MAX_AGE ago, then its token throws sso_sign_in_required, from memory too; a local operator\'s token does not', async () => {
    let clock = 10 * DAY;
    const credentials = credentialsOver(async () => operator({ lastSsoSignInAt: new Date(3 * DAY + 1) }), () => clock);
    assert.equal((await credentials.verifyToken(TOKEN))?.operator.name, 'sam');
    clock += 1;
    await assert.rejects(credentials.verifyToken(TOKEN), (error: unknown) => error instanceof AppError && error.code === 'sso_sign_in_required' && error.status === 401);
    assert.throws(() => credentials.remembered('token', TOKEN), (error: unknown) => error instanceof AppError && error.code === 'sso_sign_in_required');
    const local = credentialsOver(async () => operator({ ssoIssuer: null, ssoSubject: null }), () => 100 * DAY);
    assert.equal((await local.verifyToken(TOKEN))?.operator.name, 'sam');
  });

  it('when an invalidation comes while a token is looked up, then the operator is read again, and what is remembered is what was read after it', async () => {
    let reads = 0;
    const credentials: ReturnType<typeof credentialsOver> = credentialsOver(async () => {
      reads += 1;
      // The first read sees the operator still active, and the notification of its disable arrives meanwhile.
      if (reads === 1) {
        credentials.invalidate();
        return operator({ lastSsoSignInAt: new Date(0) });
      }
      return operator({ status: 'disabled', lastSsoSignInAt: new Date(0) });
    }, () => DAY);
    assert.equal(await credentials.verifyToken(TOKEN), undefined);
    assert.equal(reads, 2);
    assert.equal(credentials.remembered('token', TOKEN), undefined, 'the disabled operator is what is remembered');
    assert.equal(await credentials.verifyToken(TOKEN), undefined);
    assert.equal(reads, 2, 'answered from memory');
  });

  it('when another operator changes, then the credentials known good here stay known good; when this one does, they are read again', async () => {
    const credentials = credentialsOver(async () => operator({ ssoIssuer: null, ssoSubject: null }), () => DAY);
    assert.equal((await credentials.verifyToken(TOKEN))?.operator.id, 'op-1');
    credentials.invalidate('op-2');
    assert.equal(credentials.remembered('token', TOKEN)?.operator.id, 'op-1', 'a locked-out address still gets in with it');
    credentials.invalidate('op-1');
    assert.equal(credentials.remembered('token', TOKEN), undefined);
    assert.equal((await credentials.verifyToken(TOKEN))?.operator.id, 'op-1');
    credentials.invalidate();
    assert.equal(credentials.remembered('token', TOKEN), undefined, 'a change of unknown scope forgets them all');
  });
});
