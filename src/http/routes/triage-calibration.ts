import type { TriageService } from '../../domain/triage/triage.service.js';
import type { TypedApp } from '../route.js';
import { DataOf, errorResponses } from '../schemas/common.js';
import { TriageCalibration } from '../schemas/triage-calibration.js';

export function triageCalibrationRoutes(app: TypedApp, triage: Pick<TriageService, 'calibration'>): void {
  app.get('/triage/calibration', {
    schema: {
      operationId: 'getTriageCalibration',
      tags: ['Triage'],
      summary: '[ext] How far triage\'s automatic links can be trusted',
      description:
        'The duplicate matcher the server runs and the pair classifier calibrated for it: the probability from which a product in ' +
        'triage `auto` links a conversation to an issue without a person, and the link and review precision and recall that ' +
        'classifier was measured at (held-out folds of a cross-validation on labelled pairs; docs/triage.md). The same for every ' +
        'workspace: the matcher is the server\'s. `classifier` is null when none is calibrated for the matcher.',
      response: { 200: DataOf(TriageCalibration, 'The matcher in use and its classifier\'s published figures'), ...errorResponses() },
    },
    handler: async () => ({ data: triage.calibration() }),
  });
}
