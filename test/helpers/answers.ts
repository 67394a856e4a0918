// Assertions on the error envelope the contract gives each failure.
import assert from 'node:assert/strict';

type Answer = { status: number; body: any };

/** A 400 validation_error naming `field` (and, when given, a message that mentions `mentions`). */
export function assertInvalid(res: Answer, field: string, mentions?: string): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'validation_error');
  assert.ok(res.body.fields?.[field], `fields.${field} in ${JSON.stringify(res.body)}`);
  if (mentions) assert.ok(res.body.fields[field].includes(mentions), res.body.fields[field]);
}

export function assertNotFound(res: Answer): void {
  assert.equal(res.status, 404, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'not_found');
}

export function assertForbidden(res: Answer): void {
  assert.equal(res.status, 403, JSON.stringify(res.body));
  assert.equal(res.body.error_code, 'forbidden');
}
