// The product's triage setting (docs/triage.md), and beside `auto` what it was measured to do with
// the matcher the server runs now (GET /triage/calibration): a team choosing to let the platform
// link conversations by itself sees how often such a link is right before it does.
import { useId } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client.js';
import { useResource } from '../../use-resource.js';

type TriageMode = Schemas['Product']['triage'];
type Calibration = Schemas['TriageCalibration'];

const MODES: { value: TriageMode; label: string; hint: string }[] = [
  { value: 'off', label: 'Off', hint: 'New conversations get no suggestion; a person can still run triage on one.' },
  { value: 'suggest', label: 'Suggest', hint: 'Each new conversation gets a suggestion, to link it to an open issue or to create one; a person accepts it.' },
  { value: 'auto', label: 'Auto', hint: 'The platform accepts the suggestion at once: new issues are created as drafted, and links are made only where the classifier is confident.' },
];

const share = (value: number) => value.toFixed(3);

/** What `auto` links by itself with the server's matcher, as its classifier's held-out figures say. */
function AutoFigures({ calibration }: { calibration: Calibration }) {
  const { matcher, classifier } = calibration;
  if (!classifier) {
    return (
      <p>
        No classifier is calibrated for the matcher in use (<code>{matcher}</code>): its link suggestions wait for a person, even in Auto.
      </p>
    );
  }
  return (
    <p>
      With the matcher in use (<code>{matcher}</code>): link precision <strong>{share(classifier.link_precision)}</strong>, link
      recall <strong>{share(classifier.link_recall)}</strong> (measured on {classifier.conversations.toLocaleString('en')} labelled
      conversations, held-out folds). Links below its confidence wait for a person.
    </p>
  );
}

export function TriageSetting({ value, onChange, error }: { value: TriageMode; onChange: (mode: TriageMode) => void; error?: string }) {
  const calibration = useResource(() => ok(api.GET('/api/v1/triage/calibration')), []);
  const name = useId();
  return (
    <fieldset class="fieldset">
      <legend class="field-label">Triage</legend>
      {MODES.map((mode) => (
        <div key={mode.value} class="checkbox">
          <input id={`${name}-${mode.value}`} type="radio" name={name} value={mode.value} checked={value === mode.value}
            aria-describedby={`${name}-${mode.value}-hint`} onChange={() => onChange(mode.value)} />
          <label for={`${name}-${mode.value}`}>{mode.label}</label>
          <div class="field-hint" id={`${name}-${mode.value}-hint`}>
            {mode.hint}
            {mode.value === 'auto' && calibration.data && <AutoFigures calibration={calibration.data.data} />}
            {mode.value === 'auto' && calibration.error !== undefined && <p class="field-error">The measured figures could not be loaded.</p>}
          </div>
        </div>
      ))}
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}
