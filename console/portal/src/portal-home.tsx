import type { PortalSession } from '@partner-gateway/contract/portal';
import { CallsSection } from './calls-section';
import { CredentialsSection } from './credentials-section';
import { KeysSection } from './keys-section';
import { PeopleSection } from './people-section';
import { SettingsSection } from './settings-section';
import { UsageSection } from './usage-section';
import { WebhooksSection } from './webhooks-section';
import type { WordKey } from './words';

/** What a signed-in person sees: each section reads, and a partner-admin's also change. */
export function PortalHome({ session, words }: { session: PortalSession; words: (key: WordKey) => string }) {
  const admin = session.user.role === 'partner-admin';
  return (
    <>
      {!admin && <p data-testid="read-only">{words('readOnly')}</p>}
      <KeysSection admin={admin} words={words} />
      <CredentialsSection admin={admin} words={words} />
      <CallsSection words={words} />
      <WebhooksSection admin={admin} words={words} />
      <PeopleSection admin={admin} words={words} />
      <UsageSection words={words} />
      <SettingsSection admin={admin} words={words} />
    </>
  );
}
