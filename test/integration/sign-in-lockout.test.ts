// 10 failed sign-ins per email within 15 minutes lock that email for 15 minutes (docs/accounts.md):
// 429 `forbidden` with Retry-After, on the injected clock, held in the database so that every
// process counts the same failures.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createDatabase } from '../../src/db/database.js';
import { createServices } from '../../src/services.js';
import { describeEachDialect, TEST_SCRYPT } from '../helpers/harness.js';
import { manualClock } from '../helpers/manual-clock.js';
import { newPerson, signIn, withSession } from '../helpers/sessions.js';

const MINUTE = 60_000;
const clock = manualClock();

describeEachDialect('the sign-in lockout', (ctx) => {
  const fail = async (email: string, times: number) => {
    for (let i = 0; i < times; i++) assert.equal((await signIn(ctx(), { email, password: 'wrong password' })).status, 401);
  };

  it('locks an email after 10 failures within 15 minutes: 429 with Retry-After, even for the right password', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await fail(person.email, 9);
    clock.advance(14 * MINUTE);
    await fail(person.email, 1);
    const res = await signIn(ctx(), { email: person.email, password: person.password });
    assert.equal(res.status, 429);
    assert.equal(res.body.error_code, 'forbidden');
    assert.match(res.body.detail, /too many failed sign-ins/);
    assert.equal(res.headers['retry-after'], '900');

    clock.advance(10 * MINUTE);
    const later = await signIn(ctx(), { email: person.email, password: person.password });
    assert.equal(later.status, 429);
    assert.equal(later.headers['retry-after'], '300');
    clock.advance(5 * MINUTE);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 200, 'unlocked after 15 minutes');
  });

  it('does not lock for failures spread over more than 15 minutes', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await fail(person.email, 5);
    clock.advance(15 * MINUTE);
    await fail(person.email, 5);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 200);
  });

  it('does not count a successful sign-in, nor wipe the failures before it', async () => {
    const person = await newPerson(ctx(), ctx().a);
    await fail(person.email, 9);
    for (let i = 0; i < 3; i++) assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 200);
    await fail(person.email, 1);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 429, 'the 10th failure locks');
    clock.advance(15 * MINUTE);
  });

  for (const round of [1, 2, 3]) {
    it(`checks no more than 10 passwords of a burst of 100 wrong ones in flight at once (round ${round})`, async () => {
      const person = await newPerson(ctx(), ctx().a);
      const answers = await Promise.all(Array.from({ length: 100 }, () => signIn(ctx(), { email: person.email, password: 'wrong password' })));
      const statuses = answers.map((res) => res.status);
      assert.equal(statuses.filter((status) => status === 401).length, 10, statuses.join());
      assert.equal(statuses.filter((status) => status === 429).length, 90);
      assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 429);
      clock.advance(15 * MINUTE);
    });

    it(`gives a burst of 40 wrong passwords and the right one no more than 10 tries, and stays locked (round ${round})`, async () => {
      const person = await newPerson(ctx(), ctx().a);
      const bodies = [...Array.from({ length: 40 }, () => 'wrong password'), person.password];
      const statuses = (await Promise.all(bodies.map((password) => signIn(ctx(), { email: person.email, password })))).map((res) => res.status);
      assert.equal(statuses.filter((status) => status === 401).length, 10, statuses.join());
      assert.equal(statuses.filter((status) => status === 200).length + statuses.filter((status) => status === 429).length, 31);
      assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 429, 'no success resets the count');
      clock.advance(15 * MINUTE);
    });
  }

  it('checks no more than 10 current passwords of a burst of password changes', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const answers = await Promise.all(Array.from({ length: 30 }, () =>
      person.app.post('/auth/password', { current_password: 'wrong password', new_password: 'a new password' })));
    const statuses = answers.map((res) => res.status);
    assert.equal(statuses.filter((status) => status === 400).length, 10, statuses.join());
    assert.equal(statuses.filter((status) => status === 429).length, 20);
    clock.advance(15 * MINUTE);
  });

  it('locks per email, unknown ones included', async () => {
    const [locked, other] = [await newPerson(ctx(), ctx().a), await newPerson(ctx(), ctx().a)];
    await fail(locked.email.toUpperCase(), 10);
    assert.equal((await signIn(ctx(), { email: locked.email, password: locked.password })).status, 429);
    assert.equal((await signIn(ctx(), { email: other.email, password: other.password })).status, 200);
    await fail('nobody-here@example.com', 10);
    assert.equal((await signIn(ctx(), { email: 'nobody-here@example.com', password: 'wrong password' })).status, 429);
    clock.advance(15 * MINUTE);
  });

  it('counts failures made through another process on the same database', async () => {
    const person = await newPerson(ctx(), ctx().a);
    const database = createDatabase(ctx().databaseUrl);
    try {
      const elsewhere = createServices(database, { clock, passwordHashing: TEST_SCRYPT });
      for (let i = 0; i < 5; i++) await assert.rejects(elsewhere.sessions.signIn({ email: person.email, password: 'wrong password' }), /wrong email or password/);
    } finally {
      await database.close();
    }
    await fail(person.email, 5);
    assert.equal((await signIn(ctx(), { email: person.email, password: person.password })).status, 429);
    clock.advance(15 * MINUTE);
  });

  it('counts wrong current passwords of a password change, and locks those too', async () => {
    const person = await newPerson(ctx(), ctx().a);
    for (let i = 0; i < 10; i++) {
      const res = await person.app.post('/auth/password', { current_password: 'wrong password', new_password: 'a new password' });
      assert.equal(res.status, 400);
    }
    const res = await person.app.post('/auth/password', { current_password: person.password, new_password: 'a new password' });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.equal((await withSession(ctx(), person.cookie).get('/api/v1/me')).status, 200, 'the session itself goes on');
    clock.advance(15 * MINUTE);
  });
}, { clock });
