import { SELF_CERTIFICATES_PATH, SELF_PASSWORD_PATH } from '@partner-gateway/contract/paths';
import type { RotatePasswordResponse } from '@partner-gateway/contract/self-service';
import type { RotateCertificateResponse, SelfCertificatesResponse } from '@partner-gateway/contract/self-service-certificates';
import { useEffect, useState } from 'preact/hooks';
import { call } from './portal-api';
import { useAttempt } from './use-attempt';
import type { WordKey } from './words';

/** The partner's client certificates and its API password: each rotated with an overlap window (hours) by a partner-admin. */
export function CredentialsSection({ admin, words }: { admin: boolean; words: (key: WordKey) => string }) {
  const [certificates, setCertificates] = useState<SelfCertificatesResponse['certificates']>([]);
  const [pem, setPem] = useState('');
  const [hours, setHours] = useState('24');
  const [password, setPassword] = useState<RotatePasswordResponse>();
  const { problem, attempt } = useAttempt();
  useEffect(() => void attempt(async () => setCertificates((await call<SelfCertificatesResponse>('GET', SELF_CERTIFICATES_PATH)).certificates)), []);
  const overlapSeconds = () => Math.round(Number(hours) * 3600);
  return (
    <section aria-labelledby="credentials">
      <h2 id="credentials">{words('credentials')}</h2>
      <ul data-testid="certificates">
        {certificates.map((certificate) => (
          <li key={certificate.thumbprint}>
            {certificate.subject} · {certificate.notAfter}
            {certificate.retiresAt ? ` · ${words('endsAt')} ${certificate.retiresAt}` : ''}
          </li>
        ))}
      </ul>
      {admin && (
        <>
          <label>
            {words('overlapCredentialHours')}
            <input type="number" min="0" max="720" value={hours} onInput={(event) => setHours(event.currentTarget.value)} />
          </label>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void attempt(async () => {
                setCertificates((await call<RotateCertificateResponse>('POST', SELF_CERTIFICATES_PATH, { certificate: pem, overlapSeconds: overlapSeconds() })).certificates);
                setPem('');
              });
            }}
          >
            <label>
              {words('newCertificate')}
              <textarea value={pem} onInput={(event) => setPem(event.currentTarget.value)} rows={4} />
            </label>
            <button type="submit">{words('rotateCertificate')}</button>
          </form>
          <button type="button" onClick={() => void attempt(async () => setPassword(await call<RotatePasswordResponse>('POST', SELF_PASSWORD_PATH, { overlapSeconds: overlapSeconds() })))}>
            {words('rotatePassword')}
          </button>
        </>
      )}
      {password && (
        <p data-testid="new-password">
          {words('shownOnce')}: <code>{password.password}</code>
        </p>
      )}
      {problem && <p role="alert">{problem}</p>}
    </section>
  );
}
