// A form's submit: busy while the request runs (a second submit meanwhile is ignored), the
// failure kept for the form to show (its field errors under their fields), cleared on the next try.
import { useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';

export interface Action {
  busy: boolean;
  error: unknown;
  /** The server's per-field messages of the last failure (`{}` when none). */
  fields: Record<string, string>;
  run(action: () => Promise<void>): Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, fields: error instanceof ApiError ? error.fields : {}, run };
}
