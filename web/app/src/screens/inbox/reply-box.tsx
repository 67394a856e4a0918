// The reply box: Send (or Ctrl/⌘+Enter) posts the message as the signed-in member.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Button, TextArea } from '../../ui/form.js';
import { announce } from '../../ui/toast.js';

export function ReplyBox({ conversationId, sent }: { conversationId: string; sent: (message: Schemas['Message']) => void }) {
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const send = async (event?: Event) => {
    event?.preventDefault();
    if (!body.trim() || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = await ok(api.POST('/api/v1/conversations/{id}/messages', { params: { path: { id: conversationId } }, body: { body } }));
      setBody('');
      sent(answer.data);
      announce('Reply sent');
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="reply" onSubmit={send}>
      <TextArea
        label="Reply"
        hideLabel
        placeholder="Write a reply…"
        rows={3}
        value={body}
        error={error}
        onInput={(event) => setBody(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event);
        }}
      />
      <div class="reply-actions">
        <span class="muted small">Ctrl+Enter to send</span>
        <Button type="submit" variant="primary" busy={busy} disabled={!body.trim()}>Send</Button>
      </div>
    </form>
  );
}
