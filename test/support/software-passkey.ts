import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { PasskeyOptions, PasskeyResponse } from '@partner-gateway/contract/portal';

/**
 * A WebAuthn authenticator in software, for the HTTP tests (the browser tests use Chromium's virtual authenticator):
 * an ES256 key, `none` attestation, user presence and verification, and a signature counter. The server checks what
 * it produces with @simplewebauthn/server as it would a real one: nothing here is trusted by the gateway.
 *
 * @example
 * ```ts
 * const passkey = softwarePasskey();
 * const response = passkey.create(options, 'http://localhost:3000');
 * const assertion = passkey.get(signInOptions, 'http://localhost:3000');
 * ```
 */
export function softwarePasskey(options: { counting?: boolean } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  const id = credentialId.toString('base64url');
  let counter = 0;
  let userHandle = '';
  const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const authData = (rpId: string, flags: number, extra: Buffer = Buffer.alloc(0)) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(options.counting ? ++counter : 0);
    return Buffer.concat([sha256(Buffer.from(rpId)), Buffer.from([flags]), count, extra]);
  };
  return {
    id,
    create(creation: PasskeyOptions, origin: string): PasskeyResponse {
      const rpId = (creation as unknown as { rp: { id: string } }).rp.id;
      userHandle = (creation as unknown as { user: { id: string } }).user.id;
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
      const attestationObject = cbor(new Map<unknown, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData(rpId, 0x45, attested)]]));
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: { clientDataJSON: clientData('webauthn.create', creation.challenge, origin).toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] },
        clientExtensionResults: {},
      };
    },
    get(request: PasskeyOptions, origin: string): PasskeyResponse {
      const data = clientData('webauthn.get', request.challenge, origin);
      const authenticatorData = authData(request.rpId ?? '', 0x05);
      const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(data)]), privateKey as KeyObject);
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: { clientDataJSON: data.toString('base64url'), authenticatorData: authenticatorData.toString('base64url'), signature: signature.toString('base64url'), userHandle },
        clientExtensionResults: {},
      };
    },
  };
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/** The public key as a COSE_Key (RFC 9053): EC2, ES256, P-256, x and y. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return cbor(new Map<unknown, unknown>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
}

/** The little CBOR (RFC 8949) an attestation needs: small integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number) => (length < 24 ? Buffer.from([(major << 5) | length]) : length < 256 ? Buffer.from([(major << 5) | 24, length]) : Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]));
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  throw new Error(`cbor: ${typeof value} is not needed here`);
}
