/**
 * Issue 13's scenarios for `npm run bench` (called from bench/run.ts): client-credentials tokens per second
 * with private_key_jwt, without and with DPoP, against ceilings (d) and (e) measured in the same run (a bare
 * route doing only the same jose work, bench/ceilings/bare-token-server.ts); and banks calls with a DPoP-bound
 * token against banks calls with a bearer token of the same partner, measured back to back. Also the
 * gateway's grants per CPU-second of its process, set beside Keycloak's sizing guide (120 client-credentials
 * grants a second per vCPU). Then the same grants against node-oidc-provider (9a, 9b; bench/token-comparison.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectFile } from '../src/project-root.js';
import type { GatewayProcess } from '../test/support/gateway-process.js';
import type { LoadSpec } from './load.js';
import type { Row, Target } from './support/bench-report.js';
import type { DpopProofs } from '../packages/client/src/dpop-proofs.js';
import { benchKey, benchProofs, tokenRequest, writeDpopBanksRequests, writeTokenRequests, type BenchKey } from './support/oauth-requests.js';
import { registerKeyPartner } from './support/register-key-partner.js';
import { preparedCount } from './support/request-file.js';
import { cpuMs, runLoad, runLoadWithCpu } from './support/run-load.js';
import { compareWithOidcProvider } from './token-comparison.js';

/** Keycloak's sizing guide: client-credentials grants a second per vCPU it plans for. */
export const KEYCLOAK_GRANTS_PER_VCPU = 120;
const TOKEN_CONNECTIONS = 16;
// DPoP proofs may be 30 s ahead of the gateway's clock; 20 s leaves the run its whole window.
const PROOF_IAT_OFFSET_SEC = 20;

export interface OAuthCeilings {
  withoutDpop: Row;
  withDpop: Row;
  /**
   * Measures ceiling (d) (`withoutDpop`) or (e) (`withDpop`) again, as `label`: each scenario's ratio divides
   * by its ceiling measured right before it, as (a) and (b) are (bench/run.ts says why: the machine drifts).
   */
  again(which: 'withoutDpop' | 'withDpop', label: string): Promise<Row>;
}

/**
 * Ceilings (d) and (e), each alone on the machine: the bare token route without and with a DPoP proof, warmed
 * up first for `warmupSec` as the gateway is. The bare server stays up, idle, for `again`.
 */
export async function measureOAuthCeilings(options: {
  workDir: string;
  durationSec: number;
  warmupSec: number;
  record: (scenario: string, result: Awaited<ReturnType<typeof runLoad>>, extra: Partial<Row>) => Row;
}): Promise<OAuthCeilings> {
  const key = await benchKey();
  const child = spawn(process.execPath, ['--import', 'tsx', projectFile('bench/ceilings/bare-token-server.ts'), JSON.stringify(key.publicJwk)], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += String(chunk);
      if (buffer.includes('\n')) resolve(buffer.slice(0, buffer.indexOf('\n')).trim());
    });
    child.once('exit', (code) => reject(new Error(`bare-token-server exited with ${code}`)));
  });
  // The bare route keeps no jti, so a few thousand requests, cycled, stand for any number; they are written
  // afresh for each measurement, since an assertion lives a minute and a run lasts longer.
  // The bare route takes its own URL as the audience (it has no issuer identifier to compare with).
  const common = { tokenUrl: `${url}/token`, audience: `${url}/token`, login: 'bench-key', key, count: 2_000 };
  const spec = async (which: 'withoutDpop' | 'withDpop', durationSec: number): Promise<LoadSpec> => ({
    url: `${url}/token`,
    method: 'POST',
    connections: TOKEN_CONNECTIONS,
    durationSec,
    requestsFile: await writeTokenRequests(
      join(options.workDir, `ceiling-${which}.jsonl`),
      which === 'withDpop' ? { ...common, proofs: benchProofs(PROOF_IAT_OFFSET_SEC) } : common,
    ),
  });
  if (options.warmupSec > 0) {
    for (const which of ['withoutDpop', 'withDpop'] as const) await runLoad(await spec(which, options.warmupSec));
  }
  const again = async (which: 'withoutDpop' | 'withDpop', label: string) => {
    const [result, cpu] = await runLoadWithCpu(child.pid!, await spec(which, options.durationSec));
    // A ceiling that refused its requests would make any scenario look fast beside it.
    if (Object.keys(result.statuses).some((status) => status !== '200')) throw new Error(`${label}: answered ${JSON.stringify(result.statuses)}`);
    return options.record(label, result, cpu);
  };
  return {
    withoutDpop: await again('withoutDpop', '(d) bare token route: assertion + token'),
    withDpop: await again('withDpop', '(e) bare token route: assertion + proof + token'),
    again,
  };
}

/**
 * The scenarios on one backend's gateway (already running, with PUBLIC_URL = its base): a partner `bench-key`
 * with an ES256 key registered through the admin API and private_key_jwt as its only method.
 */
export async function benchOAuth(options: {
  kind: Target['backend'];
  gateway: GatewayProcess;
  adminToken: string;
  workDir: string;
  durationSec: number;
  /** Unmeasured load on the token route and DPoP banks calls first (JIT, caches), as bench/run.ts warms the rest. */
  warmupSec: number;
  ceilings: OAuthCeilings;
  measured: (scenario: string, spec: LoadSpec, extra?: Partial<Row>) => Promise<Row>;
  /** Records a row of another process's load (node-oidc-provider's, in 9a and 9b). */
  record: (scenario: string, result: Awaited<ReturnType<typeof runLoad>>, extra: Partial<Row>) => Row;
  /** Alternating rounds of 9a and 9b (bench/token-comparison.ts). */
  rounds: number;
  targets: Target[];
}): Promise<void> {
  const { kind, gateway, durationSec, ceilings, warmupSec } = options;
  const key = await registerKeyPartner(options.gateway, options.adminToken);
  const tokenUrl = `${gateway.base}/api/v1/oauth/token`;
  const banksUrl = `${gateway.base}/partner/provider/sbp/banks/`;
  // Each assertion and proof is accepted once: enough for the gateway to reach its ceiling's rate (up to
  // MAX_PREPARED_RATE; a faster gateway spends them early, and the run ends there).
  const enough = (rps: number, seconds = durationSec) => preparedCount(rps, seconds);
  const tokenSpec = (requestsFile: string): LoadSpec => ({ url: tokenUrl, method: 'POST', connections: TOKEN_CONNECTIONS, durationSec, requestsFile, singleUse: true });

  if (warmupSec > 0) {
    // Single-use requests of their own, as the measured ones are.
    const warm = (name: string, proofs?: DpopProofs) =>
      writeTokenRequests(join(options.workDir, `warm-${name}-${kind}.jsonl`), { tokenUrl, audience: gateway.base, login: 'bench-key', key, count: enough(ceilings.withoutDpop.rps, warmupSec), ...(proofs ? { proofs } : {}) });
    await runLoad({ ...tokenSpec(await warm('tokens')), durationSec: warmupSec });
    await runLoad({ ...tokenSpec(await warm('dpop-tokens', benchProofs(PROOF_IAT_OFFSET_SEC))), durationSec: warmupSec });
    const proofs = benchProofs(PROOF_IAT_OFFSET_SEC);
    const banksRequests = await writeDpopBanksRequests(join(options.workDir, `warm-dpop-banks-${kind}.jsonl`), { banksUrl, accessToken: await token(tokenUrl, key, proofs), proofs, count: enough(ceilings.withoutDpop.rps * 3, warmupSec) });
    await runLoad({ url: banksUrl, method: 'POST', connections: 32, durationSec: warmupSec, ...banksRequests });
  }

  const plainFile = await writeTokenRequests(join(options.workDir, `tokens-${kind}.jsonl`), { tokenUrl, audience: gateway.base, login: 'bench-key', key, count: enough(ceilings.withoutDpop.rps) });
  const nearD = await ceilings.again('withoutDpop', `(d) again, right before ${kind} 6.`);
  let cpu = cpuMs(gateway.process.pid!) / 1000;
  const plain = await options.measured('6. tokens, private_key_jwt', tokenSpec(plainFile), { ceiling: '(d) again' });
  const plainCpu = cpuMs(gateway.process.pid!) / 1000 - cpu;
  plain.ratio = plain.rps / nearD.rps;

  const dpopFile = await writeTokenRequests(join(options.workDir, `dpop-tokens-${kind}.jsonl`), { tokenUrl, audience: gateway.base, login: 'bench-key', key, count: enough(ceilings.withDpop.rps), proofs: benchProofs(PROOF_IAT_OFFSET_SEC) });
  const nearE = await ceilings.again('withDpop', `(e) again, right before ${kind} 7.`);
  cpu = cpuMs(gateway.process.pid!) / 1000;
  const bound = await options.measured('7. tokens, private_key_jwt + DPoP', tokenSpec(dpopFile), { ceiling: '(e) again' });
  const boundCpu = cpuMs(gateway.process.pid!) / 1000 - cpu;
  bound.ratio = bound.rps / nearE.rps;

  // Banks with this partner's bearer token, then with a DPoP-bound one, back to back.
  const bearerToken = await token(tokenUrl, key);
  const bearer = await options.measured('8a. banks, bearer token (client credentials)', { url: banksUrl, method: 'POST', headers: { authorization: `Bearer ${bearerToken}` }, connections: 32, durationSec });
  const proofs = benchProofs(PROOF_IAT_OFFSET_SEC);
  const boundToken = await token(tokenUrl, key, proofs);
  const banksRequests = await writeDpopBanksRequests(join(options.workDir, `dpop-banks-${kind}.jsonl`), { banksUrl, accessToken: boundToken, proofs, count: enough(bearer.rps) });
  const dpopBanks = await options.measured('8b. banks, DPoP-bound token, fresh proof each', { url: banksUrl, method: 'POST', connections: 32, durationSec, ...banksRequests }, { ceiling: '8a.' });
  dpopBanks.ratio = dpopBanks.rps / bearer.rps;

  // Issue 35: against node-oidc-provider, same key, same load, alternating rounds.
  await compareWithOidcProvider({ kind, gateway, key, workDir: options.workDir, durationSec, warmupSec, rounds: options.rounds, record: options.record, targets: options.targets });

  const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;
  const perCore = (row: Row, seconds: number) => Math.round((row.rps * durationSec) / Math.max(seconds, 0.01));
  const [plainPerCore, boundPerCore] = [perCore(plain, plainCpu), perCore(bound, boundCpu)];
  options.targets.push(
    { backend: kind, target: 'private_key_jwt tokens >= 60% of (d), measured right before', met: plain.ratio >= 0.6, value: pct(plain.ratio) },
    { backend: kind, target: 'private_key_jwt + DPoP tokens >= 60% of (e), measured right before', met: bound.ratio >= 0.6, value: pct(bound.ratio) },
    { backend: kind, target: 'DPoP-bound banks >= 70% of bearer banks (8a.)', met: dpopBanks.ratio >= 0.7, value: pct(dpopBanks.ratio) },
    {
      backend: kind,
      target: `grants per CPU-second of the gateway process (Keycloak's sizing guide plans ${KEYCLOAK_GRANTS_PER_VCPU} per vCPU)`,
      met: Math.min(plainPerCore, boundPerCore) >= KEYCLOAK_GRANTS_PER_VCPU,
      value: `${plainPerCore} (${(plainPerCore / KEYCLOAK_GRANTS_PER_VCPU).toFixed(1)}x), with DPoP ${boundPerCore} (${(boundPerCore / KEYCLOAK_GRANTS_PER_VCPU).toFixed(1)}x)`,
    },
  );
}

/** A token for `bench-key` from the gateway's token endpoint, bound to `proofs`' key when given. */
export async function token(tokenUrl: string, key: BenchKey, proofs?: DpopProofs): Promise<string> {
  // The bench's gateways have PUBLIC_URL = their base, the issuer identifier every assertion names.
  const { headers, body } = await tokenRequest({ tokenUrl, audience: new URL(tokenUrl).origin, login: 'bench-key', key, proofs });
  const response = await fetch(tokenUrl, { method: 'POST', headers, body });
  if (!response.ok) throw new Error(`token request: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
