import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { refusalOf } from '../../test/support/refusal-of.js';
import { rotationStore } from '../../test/support/rotation-store.js';
import type { Partner } from './partner.js';
import { rotatePartnerCertificate } from './partner-certificate-rotation.js';
import { validatePartnerCertificates, type RegisteredCertificate } from './partner-certificates.js';

const HOUR = 3600_000;
const NOW = Date.now();
const pki = createTestPki();
after(() => pki.remove());

const registered = (retiresAt?: number): RegisteredCertificate => {
  const [certificate] = validatePartnerCertificates([pki.issue({ subject: '/O=Acme/CN=acme' }).cert], new Date(NOW));
  return retiresAt === undefined ? certificate! : { ...certificate!, retiresAt: new Date(retiresAt).toISOString() };
};

/** A partner holding `certificates`, and the store its rotation writes through. */
function store(certificates: RegisteredCertificate[] | null, overtaken = false) {
  const partner = { login: 'acme', certificates, updatedAt: new Date(NOW - HOUR) } as Partner;
  const deps = rotationStore(partner, () => NOW, overtaken);
  return { partner, writes: deps.writes, deps };
}

describe('rotatePartnerCertificate', () => {
  it('when a certificate already ends sooner than the new window, then it keeps its end; one past its end is dropped', async () => {
    const soon = registered(NOW + HOUR);
    const gone = registered(NOW - 1);
    const open = registered();
    const { partner, deps } = store([soon, gone, open]);
    const rotation = await rotatePartnerCertificate(partner, { certificate: pki.issue({ subject: '/CN=next' }).cert, overlapSeconds: 24 * 3600 }, deps);
    assert.deepEqual(
      rotation.after.map((each) => [each.thumbprint, each.retiresAt]),
      [
        [soon.thumbprint, soon.retiresAt],
        [open.thumbprint, new Date(NOW + 24 * HOUR).toISOString()],
        [rotation.added.thumbprint, undefined],
      ],
    );
  });

  it('when the window is 0, then the older certificates end at once', async () => {
    const open = registered();
    const { partner, deps } = store([open]);
    const rotation = await rotatePartnerCertificate(partner, { certificate: pki.issue({ subject: '/CN=next' }).cert, overlapSeconds: 0 }, deps);
    assert.equal(rotation.after[0]!.retiresAt, new Date(NOW).toISOString());
  });

  it('when the certificate is registered, there are 20 already, or another change came first, then it is refused and nothing is written', async () => {
    const open = registered();
    const duplicate = store([open]);
    assert.equal(await refusalOf(rotatePartnerCertificate(duplicate.partner, { certificate: open.pem }, duplicate.deps)), '409 certificate_already_registered');
    const full = store(Array.from({ length: 20 }, () => registered()));
    assert.equal(await refusalOf(rotatePartnerCertificate(full.partner, { certificate: pki.issue({ subject: '/CN=21st' }).cert }, full.deps)), '422 validation_failed');
    const overtaken = store([open], true);
    assert.equal(await refusalOf(rotatePartnerCertificate(overtaken.partner, { certificate: pki.issue({ subject: '/CN=next' }).cert }, overtaken.deps)), '409 certificates_changed_meanwhile');
    assert.deepEqual([...duplicate.writes, ...full.writes, ...overtaken.writes], []);
  });
});
