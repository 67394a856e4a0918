// The signed-in member's availability beside their name: a switch named "Online" (on: online, off:
// away) that shows the state as a word and a dot. Fair assignment gives new conversations to online
// members only (docs/automation.md), so the title says what the state means.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../api/client.js';
import { announce } from './toast.js';

type Availability = Schemas['Member']['availability'];

export function AvailabilitySwitch({ initial }: { initial: Availability }) {
  const [availability, setAvailability] = useState(initial);
  const [busy, setBusy] = useState(false);
  const online = availability === 'online';
  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { data } = await ok(api.PATCH('/api/v1/me', { body: { availability: online ? 'away' : 'online' } }));
      const now = data.member?.availability ?? availability;
      setAvailability(now);
      announce(now === 'online' ? 'You are online: new conversations can be assigned to you' : 'You are away: no new conversations are assigned to you');
    } catch (error) {
      announce(describeError(error), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button" role="switch" aria-checked={online} aria-label="Online" aria-busy={busy}
      class={`availability availability-${availability}`} onClick={() => void toggle()}
      title={online ? 'Online: new conversations can be assigned to you' : 'Away: no new conversations are assigned to you'}
    >
      <span class="availability-dot" aria-hidden="true" />
      <span class="availability-word" aria-hidden="true">{online ? 'Online' : 'Away'}</span>
    </button>
  );
}
