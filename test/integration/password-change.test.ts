// POST /auth/password (docs/accounts.md): the session's person changes their password; every other
// session of theirs ends.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDialect } from '../helpers/harness.js';
import { newPerson, signIn, signedInCookie, withSession } from '../helpers/sessions.js';

describeEachDialect('POST /auth/password', (ctx) => {
  it('sets the new password, ends the person\'s other sessions and keeps this one', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const other = await signedInCookie(ctx(), { email: person.email, password: person.password });
    const res = await person.app.post('/auth/password', { current_password: person.password, new_password: 'a much better password' });
    assert.equal(res.status, 204, res.text);
    assert.equal((await person.app.get('/api/v1/me')).status, 200);
    assert.equal((await withSession(ctx(), other).get('/api/v1/me')).status, 401);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 401);
    assert.equal((await signIn(ctx(), { email: person.email, password: 'a much better password' })).status, 200);
  });

  it('answers a wrong current password with 400 on current_password', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const res = await person.app.post('/auth/password', { current_password: 'not my password', new_password: 'a much better password' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.fields, { current_password: 'is not your current password' });
  });

  for (const [body, fields] of [
    [{ current_password: 'x', new_password: 'short' }, ['new_password']],
    [{ current_password: 'x', new_password: 'y'.repeat(201) }, ['new_password']],
    [{ new_password: 'long enough now' }, ['current_password']],
    [{}, ['current_password', 'new_password']],
    [{ current_password: 'x', new_password: 'long enough now', also: 1 }, ['also']],
  ] as const) {
    it(`rejects ${JSON.stringify(body).slice(0, 70)} naming ${fields.join(', ')}`, async () => {
      const person = await newPerson(ctx(), ctx().a);
      const res = await person.app.post('/auth/password', body);
      assert.equal(res.status, 400);
      assert.deepEqual(Object.keys(res.body.fields).sort(), [...fields].sort());
    });
  }

  it('accepts 10 and 200 characters, counting code points', async () => {
    const person = await newPerson(ctx(), ctx().a);
    let current = person.password;
    for (const next of ['🔑'.repeat(10), 'x'.repeat(200), 'é'.repeat(12)]) {
      assert.equal((await person.app.post('/auth/password', { current_password: current, new_password: next })).status, 204);
      current = next;
    }
    assert.equal((await signIn(ctx(), { email: person.email, password: 'é'.normalize('NFD').repeat(12) })).status, 200, 'compared after NFC');
  });

  it('needs a session (401), from this server\'s pages (403), before looking at the body', async () => {
    const person = await newPerson(ctx(), ctx().a);
    assert.equal((await ctx().a.api.post('/auth/password', {})).status, 401, 'an API key is no session');
    assert.equal((await ctx().client(null).post('/auth/password', {})).status, 401);
    assert.equal((await withSession(ctx(), person.cookie, null).post('/auth/password', {})).status, 403);
    assert.equal((await withSession(ctx(), person.cookie, 'https://evil.example').post('/auth/password', {})).status, 403);
  });
});
