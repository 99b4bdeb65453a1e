import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The gateway's DPoP nonces (RFC 9449 section 8), which every instance hands out and checks alike without
 * sharing any state: a nonce names a time slot of `rotationSeconds` and carries an HMAC of it under a key
 * derived from MASTER_KEY (which every instance of one database already holds: it unseals the signing keys).
 */
export interface DpopNonces {
  /** The nonce to hand out now (the `DPoP-Nonce` response header): the same on every instance within a slot. */
  current(): string;
  /**
   * Whether `value` is a nonce of this slot or the previous one (so a nonce lives `rotationSeconds` to twice
   * that), or of the next one (an instance whose clock runs a little ahead handed it out).
   */
  accepts(value: unknown): boolean;
}

/** 8 bytes of slot number, 16 of HMAC-SHA256: 32 base64url characters. */
const SLOT_BYTES = 8;
const MAC_BYTES = 16;
const NONCE = /^[A-Za-z0-9_-]{32}$/;

/**
 * Stateless nonces: nothing is stored, so nothing is lost on a restart or a crash, no instance waits for
 * another, and a nonce handed out by one instance is accepted by all (their clocks agreeing within a slot).
 * The key is HKDF-SHA256 of the master key under a label of its own, so the nonce MAC never shares a key
 * with anything else.
 *
 * @example
 * ```ts
 * const nonces = createDpopNonces(masterKey, 30, Date.now);
 * reply.header('dpop-nonce', nonces.current());
 * nonces.accepts(proofPayload.nonce); // true for 30 to 60 seconds
 * ```
 */
export function createDpopNonces(masterKey: Buffer, rotationSeconds: number, now: () => number): DpopNonces {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'partner-gateway dpop-nonce v1', 32));
  // The MACs of the slots lately asked about: a check is then a decode and a comparison, no HMAC.
  const macs = new Map<number, Buffer>();
  const mac = (slot: number) => {
    let known = macs.get(slot);
    if (!known) {
      if (macs.size >= 8) macs.clear();
      known = createHmac('sha256', key).update(slotBytes(slot)).digest().subarray(0, MAC_BYTES);
      macs.set(slot, known);
    }
    return known;
  };
  const slotNow = () => Math.floor(now() / 1000 / rotationSeconds);
  let held: { slot: number; nonce: string } | undefined;
  return {
    current() {
      const slot = slotNow();
      if (held?.slot !== slot) held = { slot, nonce: Buffer.concat([slotBytes(slot), mac(slot)]).toString('base64url') };
      return held.nonce;
    },
    accepts(value) {
      if (typeof value !== 'string' || !NONCE.test(value)) return false;
      const bytes = Buffer.from(value, 'base64url');
      const slot = Number(bytes.readBigUInt64BE(0));
      const current = slotNow();
      if (slot < current - 1 || slot > current + 1) return false;
      return timingSafeEqual(bytes.subarray(SLOT_BYTES), mac(slot));
    },
  };
}

function slotBytes(slot: number): Buffer {
  const bytes = Buffer.alloc(SLOT_BYTES);
  bytes.writeBigUInt64BE(BigInt(slot));
  return bytes;
}
