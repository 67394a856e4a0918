// A value shown once (an API key, a webhook secret, an invitation link) or meant to be pasted
// elsewhere (an embed snippet), with a button that copies it.
import { useState } from 'preact/hooks';
import { Button } from './form.js';
import { Icon } from './icons.js';

export function CopyValue({ label, value, note, multiline }: { label: string; value: string; note?: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div class="copy-value">
      <div class="copy-value-head">
        <span class="field-label">{label}</span>
        <Button small variant="ghost" onClick={copy}><Icon name="copy" size={14} /> {copied ? 'Copied' : 'Copy'}</Button>
      </div>
      {multiline ? <pre class="code" aria-label={label} tabIndex={0}>{value}</pre> : <code class="code" aria-label={label}>{value}</code>}
      {note && <p class="field-hint">{note}</p>}
    </div>
  );
}
