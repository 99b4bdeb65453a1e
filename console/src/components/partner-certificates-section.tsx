import { CERTIFICATE_EXPIRY_WARNING_DAYS, type PartnerCertificatesView, type SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { useState } from 'preact/hooks';
import { admin } from '../api';
import { Field } from './forms';
import { ItemTable, type PartnerSubresource, type SubresourceFormProps } from './partner-subresource-section';
import { Time } from './time';

const DAY_MS = 86_400_000;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * A partner's client certificates (mutual TLS, RFC 8705): each one's subject, thumbprint and expiry, flagged from
 * 30 days before it; the subject DN of its CA-issued certificates; registering certificates (pasted PEM) or the
 * subject, and removing both. The page never sees more of a certificate than its public identity.
 */
export const partnerCertificates: PartnerSubresource<SetPartnerCertificatesBody, PartnerCertificatesView> = {
  id: 'certificates',
  title: 'Client certificates',
  noun: 'certificates',
  viewOf: (partner) => partner.certificates,
  none: 'No certificate or subject registered: the partner cannot use mutual TLS.',
  Registered: RegisteredCertificates,
  Form: CertificatesForm,
  refused: 'Nothing was registered',
  removal: 'Its mutual-TLS token requests are refused from the next request on, and every token it holds stops working.',
  set: (login, body) => admin.partners.setCertificates(login, body),
  remove: (login) => admin.partners.deleteCertificates(login),
};

function RegisteredCertificates({ view, partner, now = Date.now() }: { view: PartnerCertificatesView; partner: PartnerView; now?: number }) {
  return (
    <>
      <dl class="summary">
        <dt>Subject DN (tls_client_auth)</dt>
        <dd>{view.subjectDn ? <code data-testid="partner-subject-dn">{view.subjectDn}</code> : 'none'}</dd>
      </dl>
      {view.certificates.length > 0 && (
        <ItemTable caption={`Registered certificates of ${partner.login}`} columns={['Subject', 'Thumbprint (x5t#S256)', 'Expires']}>
          {view.certificates.map((certificate) => {
            const days = Math.floor((Date.parse(certificate.notAfter) - now) / DAY_MS);
            return (
              <tr key={certificate.thumbprint}>
                <th scope="row">
                  <code>{certificate.subject}</code>
                </th>
                <td>
                  <code>{certificate.thumbprint}</code>
                </td>
                <td>
                  <Time value={certificate.notAfter} />
                  {days < CERTIFICATE_EXPIRY_WARNING_DAYS && (
                    <strong class="warning" data-testid="certificate-expiry-warning">
                      {days < 0 ? ' expired' : ` expires in ${days} day${days === 1 ? '' : 's'}`}
                    </strong>
                  )}
                </td>
              </tr>
            );
          })}
        </ItemTable>
      )}
    </>
  );
}

/** Two forms, one per body: the certificates (self_signed_tls_client_auth) and the subject DN (tls_client_auth). */
function CertificatesForm({ partner, busy, errors, save, refuse }: SubresourceFormProps<SetPartnerCertificatesBody, PartnerCertificatesView>) {
  const [pasted, setPasted] = useState('');
  const [subject, setSubject] = useState(partner.certificates?.subjectDn ?? '');

  async function submitCertificates(event: Event) {
    event.preventDefault();
    // Only the CERTIFICATE blocks are sent: a private key pasted by mistake never leaves the browser.
    const certificates = pasted.match(PEM_BLOCK) ?? [];
    if (certificates.length === 0) return refuse('certificates', 'Paste one or more PEM certificates (-----BEGIN CERTIFICATE-----).');
    if (/PRIVATE KEY-----/.test(pasted)) return refuse('certificates', 'This holds a private key: paste the certificates only, and replace that key.');
    const saved = await save({ certificates }, 'certificates', () => `${certificates.length} certificate${certificates.length === 1 ? '' : 's'} of ${partner.login} registered.`);
    if (saved) setPasted('');
  }

  async function submitSubject(event: Event) {
    event.preventDefault();
    if (subject.trim() === '') return refuse('subjectDn', 'Enter a distinguished name such as CN=acme-payouts,O=Acme,C=RU.');
    const saved = await save({ subjectDn: subject.trim() }, 'subjectDn', () => `The subject of ${partner.login} was registered.`);
    if (saved) setPasted('');
  }

  return (
    <>
      <form onSubmit={submitCertificates} noValidate class="form">
        <Field id="certificates" label="PEM certificates" hint="self_signed_tls_client_auth: one or more certificates; replaces those registered now (leaving one out ends the partner’s sessions). Never a private key." errors={errors.fields.certificates}>
          {(control) => <textarea {...control} rows={6} spellcheck={false} value={pasted} onInput={(event) => setPasted(event.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Register certificates
          </button>
        </div>
      </form>
      <form onSubmit={submitSubject} noValidate class="form">
        <Field id="subjectDn" label="Subject DN" hint="tls_client_auth: the subject of the certificates TLS_CLIENT_CA_FILE's CAs issue the partner, compared as an RFC 4514 name." errors={errors.fields.subjectDn}>
          {(control) => <input {...control} type="text" spellcheck={false} value={subject} onInput={(event) => setSubject(event.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Register subject
          </button>
        </div>
      </form>
    </>
  );
}
