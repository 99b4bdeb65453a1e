import { CERTIFICATE_EXPIRY_WARNING_DAYS, type SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { describeProblem } from '@partner-gateway/contract/error-body';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin, ApiError } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { Field, FormAlert, type FormErrors, noErrors } from './forms';
import { Time } from './time';

const DAY_MS = 86_400_000;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * A partner's client certificates (mutual TLS, RFC 8705): each one's subject, thumbprint and expiry, flagged from
 * 30 days before it; the subject DN of its CA-issued certificates; registering certificates (pasted PEM) or the
 * subject, and removing both. The page never sees more of a certificate than its public identity.
 */
export function PartnerCertificatesSection({ partner, onSaved, now = Date.now() }: { partner: PartnerView; onSaved: () => Promise<void>; now?: number }) {
  const [pasted, setPasted] = useState('');
  const [subject, setSubject] = useState(partner.certificates?.subjectDn ?? '');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState(false);
  const view = partner.certificates;

  async function save(body: SetPartnerCertificatesBody, field: string, done: string) {
    setBusy(true);
    try {
      await admin.partners.setCertificates(partner.login, body);
      setErrors(noErrors);
      setPasted('');
      announce(done);
      await onSaved();
    } catch (error) {
      setErrors(certificateErrors(error, field));
    } finally {
      setBusy(false);
    }
  }

  async function submitCertificates(event: Event) {
    event.preventDefault();
    // Only the CERTIFICATE blocks are sent: a private key pasted by mistake never leaves the browser.
    const certificates = pasted.match(PEM_BLOCK) ?? [];
    if (certificates.length === 0) return setErrors({ fields: { certificates: ['Paste one or more PEM certificates (-----BEGIN CERTIFICATE-----).'] }, form: [] });
    if (/PRIVATE KEY-----/.test(pasted)) return setErrors({ fields: { certificates: ['This holds a private key: paste the certificates only, and replace that key.'] }, form: [] });
    await save({ certificates }, 'certificates', `${certificates.length} certificate${certificates.length === 1 ? '' : 's'} of ${partner.login} registered.`);
  }

  async function submitSubject(event: Event) {
    event.preventDefault();
    if (subject.trim() === '') return setErrors({ fields: { subjectDn: ['Enter a distinguished name such as CN=acme-payouts,O=Acme,C=RU.'] }, form: [] });
    await save({ subjectDn: subject.trim() }, 'subjectDn', `The subject of ${partner.login} was registered.`);
  }

  async function remove() {
    setBusy(true);
    try {
      await admin.partners.deleteCertificates(partner.login);
      setErrors(noErrors);
      announce(`The certificates of ${partner.login} were removed.`);
      await onSaved();
    } catch (error) {
      setErrors(certificateErrors(error, 'certificates'));
    } finally {
      setBusy(false);
      setRemoving(false);
    }
  }

  return (
    <section aria-labelledby="certificates-title">
      <h2 id="certificates-title">Client certificates</h2>
      {view === null ? (
        <p data-testid="partner-certificates-none">No certificate or subject registered: the partner cannot use mutual TLS.</p>
      ) : (
        <>
          <dl class="summary">
            <dt>Subject DN (tls_client_auth)</dt>
            <dd>{view.subjectDn ? <code data-testid="partner-subject-dn">{view.subjectDn}</code> : 'none'}</dd>
          </dl>
          {view.certificates.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption class="visually-hidden">Registered certificates of {partner.login}</caption>
                <thead>
                  <tr>
                    <th scope="col">Subject</th>
                    <th scope="col">Thumbprint (x5t#S256)</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
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
                </tbody>
              </table>
            </div>
          )}
          <div class="actions">
            <button type="button" class="danger-quiet" onClick={() => setRemoving(true)}>
              Remove certificates
            </button>
          </div>
        </>
      )}
      <h3>Register certificates</h3>
      <FormAlert errors={errors.form} title="Nothing was registered" />
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
      <ConfirmDialog open={removing} title={`Remove the certificates of ${partner.login}?`} confirmLabel="Remove certificates" danger busy={busy} onConfirm={() => void remove()} onCancel={() => setRemoving(false)}>
        <p>Its mutual-TLS token requests are refused from the next request on, and every token it holds stops working.</p>
      </ConfirmDialog>
    </section>
  );
}

/** The gateway's refusal under the field it concerns, each refused certificate named. */
function certificateErrors(error: unknown, field: string): FormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, form: [error instanceof Error ? error.message : String(error)] };
  if (error.problems.length === 0) return { fields: {}, form: [error.description] };
  return { fields: { [field]: error.problems.map((problem) => describeProblem(problem)) }, form: [] };
}
