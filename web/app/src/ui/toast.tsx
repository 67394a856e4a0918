// Short confirmations ("Reply sent", "APP-3 moved to Done"): shown for a few seconds and read out
// by screen readers through one polite live region.
import { useEffect, useState } from 'preact/hooks';

interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

const listeners = new Set<(toast: Toast) => void>();
let nextId = 1;

export function announce(text: string, tone: Toast['tone'] = 'info'): void {
  const toast = { id: nextId++, text, tone };
  listeners.forEach((listener) => listener(toast));
}

export function Toasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    const show = (toast: Toast) => {
      setToasts((list) => [...list.slice(-2), toast]);
      setTimeout(() => setToasts((list) => list.filter((t) => t.id !== toast.id)), 4000);
    };
    listeners.add(show);
    return () => listeners.delete(show);
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => <div key={toast.id} class={`toast toast-${toast.tone}`}>{toast.text}</div>)}
    </div>
  );
}
