import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compactDecrypt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { projectFile } from '../src/project-root.js';

describe('docs/jwe-worked-example.md', () => {
  const markdown = readFileSync(projectFile('docs/jwe-worked-example.md'), 'utf8');
  const blocks = [...markdown.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => match[2]!.trim());

  it('publishes a JWE that its own throwaway key decrypts to the example password', async () => {
    const compact = blocks.find((block) => block.split('.').length === 5 && !block.includes(' '))!;
    const privateJwk = JSON.parse(blocks.at(-1)!) as JWK;
    const { plaintext, protectedHeader } = await compactDecrypt(compact, await importJWK(privateJwk, 'RSA-OAEP-256'));
    assert.equal(new TextDecoder().decode(plaintext), 'Example-API-password-42');
    assert.equal(protectedHeader.kid, privateJwk.kid);
  });

  it('shows the exact header the gateway requires', () => {
    const compact = blocks.find((block) => block.split('.').length === 5 && !block.includes(' '))!;
    const header = decodeProtectedHeader(compact);
    assert.deepEqual(Object.keys(header).sort(), ['alg', 'enc', 'iat', 'jti', 'kid']);
    assert.equal(header.alg, 'RSA-OAEP-256');
    assert.equal(header.enc, 'A256GCM');
    assert.equal(typeof header.iat, 'number');
  });
});
