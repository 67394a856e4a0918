// Forms anyone may send: a ticket, idea or feedback, filed as a conversation with source form.
import type { FormService } from '../../../domain/widget/form.service.js';
import type { TypedApp } from '../../route.js';
import { DataOf } from '../../schemas/common.js';
import { FormBody, FormReceipt, PUBLIC, WidgetKeyParams, widgetWriteErrors } from '../schemas.js';

export function formRoutes(app: TypedApp, forms: FormService): void {
  app.post('/:widget_key/forms', {
    schema: {
      operationId: 'submitWidgetForm',
      tags: ['Forms'],
      summary: 'Send a form',
      description:
        'Files a conversation (source form, status open, default type ticket) whose first message is body, from the contact of email ' +
        '(or a new contact). fields (a JSON object, at most 16 KiB) is kept as the conversation\'s form_fields. Needs `altcha` when ' +
        'proof_of_work is on; no session.',
      security: PUBLIC,
      params: WidgetKeyParams,
      body: FormBody,
      response: { 201: DataOf(FormReceipt, 'The filed submission'), ...widgetWriteErrors() },
    },
    handler: async (request, reply) => {
      reply.code(201);
      return { data: await forms.submit(request.widgetProduct, request.body) };
    },
  });
}
