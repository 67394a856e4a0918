// Where a widget starts: its configuration, proof-of-work challenges and visitor sessions.
import type { ProofOfWork } from '../../../domain/widget/proof-of-work.service.js';
import type { WidgetSessionService } from '../../../domain/widget/widget-session.service.js';
import type { WidgetService } from '../../../domain/widget/widget.service.js';
import type { TypedApp } from '../../route.js';
import { DataOf } from '../../schemas/common.js';
import { AltchaChallenge, PUBLIC, StartSessionBody, WidgetConfig, WidgetKeyParams, WidgetSession, widgetErrors, widgetWriteErrors } from '../schemas.js';

const TAGS = ['Widget'];

export function intakeRoutes(app: TypedApp, { widgets, proofOfWork, sessions }: {
  widgets: WidgetService; proofOfWork: ProofOfWork; sessions: WidgetSessionService;
}): void {
  app.get('/:widget_key/config', {
    schema: {
      operationId: 'getWidgetConfig',
      tags: TAGS,
      summary: 'The widget\'s configuration',
      description: 'The product\'s name and the widget_config the widget needs: greeting, colour, and what it must ask visitors for.',
      security: PUBLIC,
      params: WidgetKeyParams,
      response: { 200: DataOf(WidgetConfig, 'The configuration'), ...widgetErrors() },
    },
    handler: async (request) => ({ data: widgets.config(request.widgetProduct) }),
  });

  app.get('/:widget_key/challenge', {
    schema: {
      operationId: 'getWidgetChallenge',
      tags: TAGS,
      summary: 'A proof-of-work challenge',
      description:
        'A fresh ALTCHA challenge (20 minutes to solve and use). Solve it (altcha-lib\'s solveChallenge, or the ALTCHA widget) and send ' +
        'the base64 payload as `altcha` with POST /sessions or POST /forms; each solution is accepted once.',
      security: PUBLIC,
      params: WidgetKeyParams,
      response: { 200: AltchaChallenge, ...widgetErrors() },
    },
    handler: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return proofOfWork.challenge(request.widgetProduct.id);
    },
  });

  app.post('/:widget_key/sessions', {
    schema: {
      operationId: 'startWidgetSession',
      tags: TAGS,
      summary: 'Start a visitor session',
      description:
        'Anonymous, with a typed email (unverified: the session sees only the conversations it starts), or with an identity_token the ' +
        'host site signed (verified: the visitor sees all their conversations of this product, from any device). 401 for an invalid ' +
        'identity token, or none when require_identity is on; 400 on `altcha` when proof_of_work is on and no fresh solution is sent.',
      security: PUBLIC,
      params: WidgetKeyParams,
      body: StartSessionBody,
      response: { 201: DataOf(WidgetSession, 'The session; its token is shown only here'), ...widgetWriteErrors(401) },
    },
    config: { widgetSessionStart: true },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await sessions.start(request.widgetProduct, request.body) };
    },
  });
}
