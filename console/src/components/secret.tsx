import { useState } from 'preact/hooks';

/**
 * A password (or an operator's personal token) shown this once, with a button that copies it. The gateway keeps
 * only its hash: after this panel is left, nobody can see it again.
 */
export function ShownOnce({ label, secret, onDone, noun = 'password' }: { label: string; secret: string; onDone: () => void; noun?: 'password' | 'token' }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      const output = document.getElementById('shown-once-secret');
      if (output) getSelection()?.selectAllChildren(output);
      setCopied('failed');
    }
  }
  return (
    <section class="shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title">{label}</h2>
      <p>
        This {noun} is shown <strong>only this once</strong>; the gateway stores only its hash.{' '}
        {noun === 'password' ? 'Copy it now and hand it to the partner through a secure channel.' : 'Copy it now into your password manager or the CLI (PARTNER_GATEWAY_ADMIN_TOKEN); it acts as its operator until it expires or is revoked.'}
      </p>
      <p class="secret-line">
        <code id="shown-once-secret" data-testid="shown-once-secret">
          {secret}
        </code>
        <button type="button" class="primary" onClick={copy}>
          Copy {noun}
        </button>
      </p>
      <p role="status" class="hint">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? `The clipboard is not available here: the ${noun} is selected, press Ctrl+C.` : ''}
      </p>
      <button type="button" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
