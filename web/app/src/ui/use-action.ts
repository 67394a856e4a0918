// A form's submit: busy while the request runs (a second submit meanwhile is ignored), the
// failure kept for the form to show (its field errors under their fields, anything else as the
// form's message), cleared on the next try.
import { useState } from 'preact/hooks';
import { ApiError, describeError } from '../api/client.js';

export interface Action<Kind extends string = 'submit'> {
  /** What runs now (a form with two submits, such as "Save draft" and "Publish", tells them apart), or null. */
  running: Kind | null;
  busy: boolean;
  error: unknown;
  /** The server's per-field messages of the last failure (`{}` when none). */
  fields: Record<string, string>;
  /** The last failure as the form's own message, when it names no field (those show under their fields). */
  message: string | null;
  run(action: () => Promise<void>, kind?: Kind): Promise<void>;
}

export function useAction<Kind extends string = 'submit'>(): Action<Kind> {
  const [running, setRunning] = useState<Kind | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<void>, kind = 'submit' as Kind) => {
    if (running !== null) return;
    setRunning(kind);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(null);
    }
  };
  const fields = error instanceof ApiError ? error.fields : {};
  const message = error && Object.keys(fields).length === 0 ? describeError(error) : null;
  return { running, busy: running !== null, error, fields, message, run };
}
