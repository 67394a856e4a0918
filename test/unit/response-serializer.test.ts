// The response serializers: a nullable object (`anyOf: [object, null]` in the document) is written
// as the object or null, like any other object, without fast-json-stringify validating the value
// against each branch first (formats included, per row); any other `anyOf` keeps its check.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSerializer } from '../../src/http/serializer.js';

const Member = {
  $id: 'Member',
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, role: { type: 'string' } },
  required: ['id', 'role'],
};
const Note = { $id: 'Note', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

const serializerFor = (schema: object) =>
  buildSerializer!({ Member, Note } as never, undefined)({ schema } as never) as (data: unknown) => string;

describe('the response serializers', () => {
  for (const [label, branches] of [
    ['a named object, then null', [{ $ref: 'Member' }, { type: 'null' }]],
    ['null, then a named object', [{ type: 'null' }, { $ref: 'Member' }]],
    ['an inline object', [{ type: 'object', properties: { id: { type: 'string', format: 'uuid' }, role: { type: 'string' } } }, { type: 'null' }]],
  ] as const) {
    it(`writes a nullable object (${label}) as the object or null, without validating it first`, () => {
      const serialize = serializerFor({
        type: 'object',
        properties: { member: { anyOf: branches, description: 'who' }, label: { type: 'string' } },
        required: ['member', 'label'],
      });
      const member = { id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', role: 'admin' };
      assert.equal(serialize({ member, label: 'a' }), JSON.stringify({ member, label: 'a' }));
      assert.equal(serialize({ member: null, label: 'b' }), '{"member":null,"label":"b"}');
      // An id that is no uuid: a branch check would have thrown; other objects are written as given too.
      assert.equal(serialize({ member: { id: 'x', role: 'admin' }, label: 'c' }), '{"member":{"id":"x","role":"admin"},"label":"c"}');
    });
  }

  it('keeps the check of an anyOf that picks between objects', () => {
    const serialize = serializerFor({ type: 'object', properties: { item: { anyOf: [{ $ref: 'Member' }, { $ref: 'Note' }] } } });
    assert.equal(serialize({ item: { text: 'hello' } }), '{"item":{"text":"hello"}}');
    assert.equal(serialize({ item: { id: '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091', role: 'owner' } }), '{"item":{"id":"0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f8091","role":"owner"}}');
  });
});
