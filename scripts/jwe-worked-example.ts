/**
 * Produces docs/jwe-worked-example.md: one partnerPassword JWE built step by step with a throwaway key
 * pair, every intermediate value shown, so that an integrator in any language can compare their own bytes.
 * Run: `npx tsx scripts/jwe-worked-example.ts`. A test decrypts the published example to keep it honest.
 */
import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { calculateJwkThumbprint, compactDecrypt, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { projectFile } from '../src/project-root.js';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048, extractable: true });
const publicJwk: JWK = { ...(await exportJWK(publicKey)), use: 'enc', alg: 'RSA-OAEP-256' };
publicJwk.kid = await calculateJwkThumbprint(publicJwk);
const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid: publicJwk.kid, alg: 'RSA-OAEP-256' };

const password = 'Example-API-password-42';
const header = { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: publicJwk.kid, iat: 1795000000, jti: '3f2b8c1e-5d4a-4e7b-9c2d-1a0b9e8f7d6c' };
const protectedHeader = b64(JSON.stringify(header));
const cek = randomBytes(32);
const encryptedKey = publicEncrypt({ key: createPublicKey({ key: publicJwk as never, format: 'jwk' }), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, cek);
const iv = randomBytes(12);
const cipher = createCipheriv('aes-256-gcm', cek, iv);
cipher.setAAD(Buffer.from(protectedHeader, 'ascii'));
const ciphertext = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
const tag = cipher.getAuthTag();
const compact = [protectedHeader, b64(encryptedKey), b64(iv), b64(ciphertext), b64(tag)].join('.');

// Check the hand-built JWE with an independent implementation before publishing it.
const { plaintext } = await compactDecrypt(compact, await importJWK(privateJwk, 'RSA-OAEP-256'));
if (new TextDecoder().decode(plaintext) !== password) throw new Error('the worked example does not decrypt');

const markdown = `# partnerPassword JWE: a worked example

Produced by \`scripts/jwe-worked-example.ts\` with a throwaway key pair (never a gateway's key). Run it
again and the random parts (content key, IV, RSA-OAEP padding) change; the structure does not.
Everything below is what your code must do, in order, in any language.

**1. The gateway's encryption key**, from \`GET /.well-known/jwks.json\` (the key with \`"use": "enc"\`):

\`\`\`json
${JSON.stringify(publicJwk, null, 2)}
\`\`\`

**2. The protected header**: \`alg\`, \`enc\`, the key's \`kid\`, \`iat\` = now in integer seconds (this
example's is fixed; yours must be the current time, within 120 s in the past and 30 s in the future of the
gateway's clock) and a fresh \`jti\` for every call:

\`\`\`json
${JSON.stringify(header)}
\`\`\`

BASE64URL(UTF-8(header)), which is also the AES-GCM additional authenticated data:

\`\`\`text
${protectedHeader}
\`\`\`

**3. A random 256-bit content encryption key (CEK)**:

\`\`\`text
${hex(cek)}
\`\`\`

**4. The CEK encrypted with RSA-OAEP-256** (OAEP with SHA-256 and MGF1-SHA-256) to the gateway's key, base64url:

\`\`\`text
${b64(encryptedKey)}
\`\`\`

**5. A random 96-bit IV**: \`${hex(iv)}\` → base64url \`${b64(iv)}\`

**6. AES-256-GCM** of the UTF-8 password \`${password}\` under the CEK and IV, with the AAD of step 2:
ciphertext \`${b64(ciphertext)}\`, 128-bit tag \`${b64(tag)}\`.

**7. The compact serialization**: the five parts joined by dots. This is the value of \`partnerPassword\`
(all characters are URL-safe):

\`\`\`text
${compact}
\`\`\`

**8. The request**:

\`\`\`text
POST /partner/provider/sbp/banks/?partnerName=<login>&partnerPassword=<step 7>&useAuthByCert=Y
\`\`\`

For checking your own implementation, the private half of this throwaway key (it decrypts step 7):

\`\`\`json
${JSON.stringify(privateJwk, null, 2)}
\`\`\`
`;
writeFileSync(projectFile('docs/jwe-worked-example.md'), markdown);
