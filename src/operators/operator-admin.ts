import { randomUUID } from 'node:crypto';
import type { CreatedToken, CreateOperatorBody, CreateTokenBody, OperatorView, TokenView, UpdateOperatorBody } from '@partner-gateway/contract/admin-operators';
import { DEFAULT_TOKEN_DAYS } from '@partner-gateway/contract/admin-operators';
import { errors } from '../errors.js';
import { toOperatorView, toTokenView } from './operator.js';
import type { OperatorRepository } from './operator-repository.js';
import type { OperatorTokenRepository } from './operator-token-repository.js';
import { newOperatorToken, secretHash } from './operator-secrets.js';
import type { SessionRepository } from './session-repository.js';

const DAY_MS = 86_400_000;

/** Who creates a personal token: `id` an operator id or `bootstrap`, `through` the other operators behind it, root first. */
export interface TokenIssuer {
  id: string;
  through: readonly string[];
}

/** The bootstrap credential as a token's issuer: the token it creates is its operator's own, with no chain. */
export const BOOTSTRAP_ISSUER: TokenIssuer = { id: 'bootstrap', through: [] };

/** An operator before and after a change (for the audit trail). */
export interface OperatorChange {
  before: OperatorView;
  after: OperatorView;
}

/** Operators and their personal tokens, as the admin API changes them, in the contract's shapes. */
export interface OperatorAdmin {
  list(): Promise<OperatorView[]>;
  get(id: string): Promise<OperatorView>;
  /** 409 when the name is taken (compared without case). `createdBy` is who acts (an operator id, or `bootstrap`). */
  create(input: CreateOperatorBody, createdBy: string): Promise<OperatorView>;
  /** What `create` would do, without doing it (maker-checker's preview): 409 when the name is taken. */
  checkCreate(input: CreateOperatorBody): Promise<void>;
  /**
   * Renames, changes the role or disables/enables. A disabled operator's tokens and sessions are refused at once
   * on every instance; a new role applies from the next request, and the operator's console sessions end.
   */
  update(id: string, input: UpdateOperatorBody): Promise<OperatorChange>;
  listTokens(operatorId: string): Promise<TokenView[]>;
  /**
   * A new personal token of an active operator, shown this once; stored only as its hash. `issuer` is who creates
   * it (an operator id, or `bootstrap`) and the operators it is created through (request-context's chainOfNewToken).
   */
  createToken(operatorId: string, input: CreateTokenBody, issuer: TokenIssuer): Promise<CreatedToken>;
  /** Revokes one token at once on every instance; 404 when the operator has no such token. */
  revokeToken(operatorId: string, tokenId: string): Promise<TokenView>;
}

export interface OperatorAdminDependencies {
  operators: OperatorRepository;
  tokens: OperatorTokenRepository;
  sessions: Pick<SessionRepository, 'deleteFor'>;
  /** Told after every change that may refuse a credential: this instance's caches and the other instances' (change feed). */
  /** The operator's cached credentials must be read again, here and on every instance. */
  changed: (operatorId: string) => void;
  now: () => number;
}

export function createOperatorAdmin({ operators, tokens, sessions, changed, now }: OperatorAdminDependencies): OperatorAdmin {
  async function found(id: string) {
    const operator = await operators.findById(id);
    if (!operator) throw errors.operatorNotFound();
    return operator;
  }
  return {
    async list() {
      return (await operators.list()).map(toOperatorView);
    },
    async get(id) {
      return toOperatorView(await found(id));
    },
    async checkCreate(input) {
      if (await operators.nameTaken(input.name)) throw errors.operatorExists(input.name);
    },
    async create(input, createdBy) {
      const created = await operators.insert({ id: randomUUID(), name: input.name, role: input.role, createdBy });
      if (!created) throw errors.operatorExists(input.name);
      return toOperatorView(created);
    },
    async update(id, input) {
      const before = await found(id);
      if (input.name !== undefined && (await operators.nameTaken(input.name, id))) throw errors.operatorExists(input.name);
      // A status a security operator sets is theirs: single sign-on no longer lifts it (nor one it set).
      const after = await operators.update(id, { ...input, ...(input.status !== undefined ? { ssoDisabledAt: null } : {}) }).catch((error: unknown) => {
        // Two renames to one name at once: the unique index refuses the second.
        if ((error as { code?: string }).code === '23505') throw errors.operatorExists(input.name ?? before.name);
        throw error;
      });
      if (!after) throw errors.operatorNotFound();
      if (after.status !== before.status || after.role !== before.role) await sessions.deleteFor(id);
      changed(id);
      return { before: toOperatorView(before), after: toOperatorView(after) };
    },
    async listTokens(operatorId) {
      await found(operatorId);
      return (await tokens.listFor(operatorId)).map(toTokenView);
    },
    async createToken(operatorId, input, issuer) {
      const operator = await found(operatorId);
      if (operator.status !== 'active') throw errors.operatorDisabled();
      const token = newOperatorToken();
      const stored = await tokens.insert({
        id: randomUUID(),
        operatorId,
        label: input.label,
        tokenHash: secretHash(token),
        createdBy: issuer.id,
        issuedThrough: issuer.through.filter((id) => id !== operatorId),
        createdAt: new Date(now()),
        expiresAt: new Date(now() + (input.expiresInDays ?? DEFAULT_TOKEN_DAYS) * DAY_MS),
      });
      return { ...toTokenView(stored), token };
    },
    async revokeToken(operatorId, tokenId) {
      const revoked = await tokens.revoke(operatorId, tokenId, new Date(now()));
      if (!revoked) throw errors.tokenNotFound();
      changed(operatorId);
      return toTokenView(revoked);
    },
  };
}
