// A calendar's form: its name, its IANA time zone (picked from the browser's list, or typed), the
// open intervals of each weekday (up to four; 24:00 ends a day), and holidays. The server checks
// it all; its errors show on the day, the zone or the holidays they name.
import { useId, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { Dialog } from '../../ui/dialog.js';
import { Button, FormError, TextField } from '../../ui/form.js';
import { announce } from '../../ui/toast.js';
import { useAction } from '../../ui/use-action.js';

type Calendar = Schemas['Calendar'];
type Hours = Calendar['hours'];
export type Day = keyof Hours;

export const DAYS: [Day, string][] = [
  ['mon', 'Monday'], ['tue', 'Tuesday'], ['wed', 'Wednesday'], ['thu', 'Thursday'], ['fri', 'Friday'], ['sat', 'Saturday'], ['sun', 'Sunday'],
];
const MAX_INTERVALS = 4;
const WORKDAY: [string, string] = ['09:00', '17:00'];
const OFFICE_HOURS: Hours = { mon: [WORKDAY], tue: [WORKDAY], wed: [WORKDAY], thu: [WORKDAY], fri: [WORKDAY] };

/** The zones this browser knows (UTC first, which some leave out), for the picker's suggestions. */
const zones = (): string[] => ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function CalendarDialog({ calendar, close, saved }: { calendar: Calendar | null; close: () => void; saved: () => void }) {
  const [name, setName] = useState(calendar?.name ?? '');
  const [timezone, setTimezone] = useState(calendar?.timezone ?? browserZone());
  const [hours, setHours] = useState<Hours>(calendar?.hours ?? OFFICE_HOURS);
  const [holidays, setHolidays] = useState<string[]>(calendar?.holidays ?? []);
  const [holiday, setHoliday] = useState('');
  const zoneList = useId();
  const action = useAction();
  const { fields } = action;

  const setDay = (day: Day, intervals: string[][]) => setHours((current) => ({ ...current, [day]: intervals }));
  const addHoliday = () => {
    if (holiday && !holidays.includes(holiday)) setHolidays([...holidays, holiday].sort());
    setHoliday('');
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const open = Object.fromEntries(Object.entries(hours).filter(([, intervals]) => intervals.length > 0));
      const body = { name, timezone: timezone.trim(), hours: open, holidays };
      if (calendar) await ok(api.PATCH('/api/v1/calendars/{id}', { params: { path: { id: calendar.id } }, body }));
      else await ok(api.POST('/api/v1/calendars', { body }));
      announce(calendar ? 'Calendar saved' : 'Calendar added');
      saved();
      close();
    });
  };

  return (
    <Dialog title={calendar ? 'Edit calendar' : 'New calendar'} close={close} wide>
      <form class="stack" onSubmit={submit} noValidate>
        <FormError message={action.message} />
        <TextField label="Name" value={name} error={fields.name} placeholder="Support hours" onInput={(e) => setName(e.currentTarget.value)} />
        <TextField label="Time zone" value={timezone} error={fields.timezone} list={zoneList} hint="An IANA name, such as Europe/Berlin" onInput={(e) => setTimezone(e.currentTarget.value)} />
        <datalist id={zoneList}>{zones().map((zone) => <option key={zone} value={zone} />)}</datalist>
        <fieldset class="fieldset">
          <legend class="field-label">Opening hours</legend>
          <p class="field-hint">A day without intervals is closed. 24:00 ends a day.</p>
          {fields.hours && <p class="field-error">{fields.hours}</p>}
          {DAYS.map(([day, label]) => <DayHours key={day} label={label} intervals={hours[day] ?? []} error={fields[`hours.${day}`]} change={(intervals) => setDay(day, intervals)} />)}
        </fieldset>
        <fieldset class="fieldset">
          <legend class="field-label">Holidays</legend>
          <p class="field-hint">Closed all day, in the calendar's time zone.</p>
          {holidays.length > 0 && (
            <ul class="plain-list holiday-list" aria-label="Holidays">
              {holidays.map((date) => (
                <li key={date} class="tag">
                  {date}
                  <button type="button" class="tag-remove" onClick={() => setHolidays(holidays.filter((d) => d !== date))}>
                    <span aria-hidden="true">×</span><span class="visually-hidden">Remove holiday {date}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div class="row">
            <TextField label="Holiday date" hideLabel type="date" value={holiday} onInput={(e) => setHoliday(e.currentTarget.value)} />
            <Button small onClick={addHoliday} disabled={!holiday}>Add holiday</Button>
          </div>
          {fields.holidays && <p class="field-error">{fields.holidays}</p>}
        </fieldset>
        <div class="dialog-actions">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={action.busy}>{calendar ? 'Save' : 'Add calendar'}</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** One weekday's intervals: two times each (typed, so 24:00 can end a day), add and remove. */
function DayHours({ label, intervals, error, change }: { label: string; intervals: string[][]; error?: string; change: (intervals: string[][]) => void }) {
  const set = (index: number, part: 0 | 1, value: string) => change(intervals.map((interval, i) => (i === index ? (part === 0 ? [value, interval[1]] : [interval[0], value]) : interval)));
  const add = () => change([...intervals, intervals.length === 0 ? [...WORKDAY] : [intervals.at(-1)![1], '24:00']]);
  return (
    <div class="hours-day" role="group" aria-label={label}>
      <span class="hours-day-name" aria-hidden="true">{label}</span>
      <div class="hours-intervals">
        {intervals.length === 0 && <span class="muted">Closed</span>}
        {intervals.map(([start, end], index) => {
          const which = intervals.length > 1 ? ` (${index + 1})` : '';
          return (
            <div key={index} class="hours-interval">
              <TextField label={`${label} opens${which}`} hideLabel inputMode="numeric" placeholder="09:00" value={start} onInput={(e) => set(index, 0, e.currentTarget.value)} />
              <span aria-hidden="true">–</span>
              <TextField label={`${label} closes${which}`} hideLabel inputMode="numeric" placeholder="17:00" value={end} onInput={(e) => set(index, 1, e.currentTarget.value)} />
              <Button small variant="ghost" onClick={() => change(intervals.filter((_, i) => i !== index))}>Remove<span class="visually-hidden"> {label} {start}–{end}</span></Button>
            </div>
          );
        })}
        {intervals.length < MAX_INTERVALS && <Button small variant="ghost" onClick={add}>Add hours<span class="visually-hidden"> on {label}</span></Button>}
        {error && <p class="field-error">{error}</p>}
      </div>
    </div>
  );
}
