// Calendars of business hours: the list, and removal (a calendar a policy measures in stays: the
// server says which policies use it). Creating and editing is calendar-dialog.tsx.
import { useState } from 'preact/hooks';
import { api, describeError, ok, type Schemas } from '../../api/client.js';
import { Button } from '../../ui/form.js';
import { EmptyState, ErrorState, Loading } from '../../ui/page.js';
import { announce } from '../../ui/toast.js';
import type { Resource } from '../../use-resource.js';
import { CalendarDialog, DAYS } from './calendar-dialog.js';

type Calendar = Schemas['Calendar'];

/** "Mon–Fri 09:00–17:00 · Sat 10:00–14:00": days with the same hours grouped when they follow each other. */
export function hoursSummary(hours: Calendar['hours']): string {
  const groups: { from: number; to: number; text: string }[] = [];
  DAYS.forEach(([day], index) => {
    const intervals = hours[day];
    if (!intervals?.length) return;
    const text = intervals.map(([start, end]) => `${start}–${end}`).join(', ');
    const last = groups.at(-1);
    if (last && last.to === index - 1 && last.text === text) last.to = index;
    else groups.push({ from: index, to: index, text });
  });
  const short = (index: number) => DAYS[index][1].slice(0, 3);
  return groups.length === 0 ? 'Never open' : groups.map((g) => `${g.from === g.to ? short(g.from) : `${short(g.from)}–${short(g.to)}`} ${g.text}`).join(' · ');
}

export function Calendars({ calendars, changed }: { calendars: Resource<Calendar[]>; changed: () => void }) {
  const [editing, setEditing] = useState<Calendar | 'new' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const remove = async (calendar: Calendar) => {
    if (!confirm(`Delete the calendar "${calendar.name}"?`)) return;
    setProblem(null);
    try {
      await ok(api.DELETE('/api/v1/calendars/{id}', { params: { path: { id: calendar.id } } }));
      announce('Calendar deleted');
      await calendars.reload();
    } catch (failure) {
      // In use by a policy: the server names them; the message stays until the next try.
      setProblem(describeError(failure));
    }
  };

  return (
    <section aria-labelledby="calendars-heading" class="stack">
      <div class="row">
        <h2 id="calendars-heading">Calendars</h2>
        <span class="spacer" />
        <Button variant="primary" onClick={() => setEditing('new')}>New calendar</Button>
      </div>
      <p class="muted">Business hours in a time zone, with holidays. A policy measured in one counts only its open time.</p>
      {problem && <div class="alert alert-error" role="alert">{problem}</div>}
      {calendars.error ? <ErrorState error={calendars.error} retry={calendars.reload} /> : null}
      {!calendars.data ? (calendars.error ? null : <Loading />) : calendars.data.length === 0 ? (
        <div class="card"><EmptyState title="No calendars">Without one, policies count round the clock.</EmptyState></div>
      ) : (
        <div class="card table-wrap">
          <table class="table table-stack">
            <thead><tr><th scope="col">Name</th><th scope="col">Time zone</th><th scope="col">Hours</th><th scope="col">Holidays</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {calendars.data.map((calendar) => (
                <tr key={calendar.id}>
                  <td><strong>{calendar.name}</strong></td>
                  <td data-label="Time zone">{calendar.timezone}</td>
                  <td data-label="Hours" class="small">{hoursSummary(calendar.hours)}</td>
                  <td data-label="Holidays">{calendar.holidays.length}</td>
                  <td class="actions">
                    <Button small onClick={() => setEditing(calendar)}>Edit<span class="visually-hidden"> {calendar.name}</span></Button>{' '}
                    <Button small variant="danger" onClick={() => void remove(calendar)}>Delete<span class="visually-hidden"> {calendar.name}</span></Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <CalendarDialog calendar={editing === 'new' ? null : editing} close={() => setEditing(null)} saved={() => { setProblem(null); void calendars.reload(); changed(); }} />
      )}
    </section>
  );
}
