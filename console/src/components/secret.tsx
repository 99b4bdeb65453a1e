import { useState } from 'preact/hooks';

/**
 * A password shown this once, with a button that copies it. The gateway keeps only its hash: after this
 * panel is left, nobody can see it again.
 */
export function ShownOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
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
        This password is shown <strong>only this once</strong>; the gateway stores only its hash. Copy it now and hand it to the partner
        through a secure channel.
      </p>
      <p class="secret-line">
        <code id="shown-once-secret" data-testid="shown-once-secret">
          {secret}
        </code>
        <button type="button" class="primary" onClick={copy}>
          Copy password
        </button>
      </p>
      <p role="status" class="hint">
        {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'The clipboard is not available here: the password is selected, press Ctrl+C.' : ''}
      </p>
      <button type="button" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
