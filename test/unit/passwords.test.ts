// Password hashes (scrypt at the production cost) and the lockout's window arithmetic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPasswordHasher, DEFAULT_SCRYPT } from '../../src/domain/accounts/passwords.js';
import { lockedUntil } from '../../src/domain/accounts/sign-in-lockout.js';

describe('password hashes', () => {
  const hasher = createPasswordHasher();

  it('store scrypt at N = 2^15, r = 8, p = 3 with a 16-byte salt, and verify only the right password', async () => {
    assert.deepEqual(DEFAULT_SCRYPT, { ln: 15, r: 8, p: 3 });
    const hash = await hasher.hash('correct horse battery');
    assert.match(hash, /^scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    assert.equal(await hasher.verify('correct horse battery', hash), true);
    assert.equal(await hasher.verify('correct horse batterY', hash), false);
    assert.notEqual(await hasher.hash('correct horse battery'), hash, 'a new salt each time');
  });

  it('verify hashes made with other parameters, and refuse what is not a hash', async () => {
    const cheap = await createPasswordHasher({ ln: 10, r: 8, p: 1 }).hash('correct horse battery');
    assert.equal(await hasher.verify('correct horse battery', cheap), true);
    for (const stored of ['', 'plain text', 'scrypt$ln=15,r=8,p=3$$', '$2b$10$abcdefghijklmnopqrstuv']) {
      assert.equal(await hasher.verify('correct horse battery', stored), false, stored);
    }
  });

  it('spend about the same time on no hash as on a wrong password', async () => {
    const hash = await hasher.hash('correct horse battery');
    await hasher.verifyNothing('warm up');
    const time = async (work: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await work();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const wrong = await time(() => hasher.verify('wrong password', hash));
    const nothing = await time(() => hasher.verifyNothing('wrong password'));
    assert.ok(nothing > wrong / 3 && nothing < wrong * 3, `wrong password ${wrong.toFixed(0)} ms, no hash ${nothing.toFixed(0)} ms`);
  });
});

describe('the lockout window', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 21, 10) + minutes * 60_000).toISOString();
  const end = (minutes: number) => Date.parse(at(minutes));

  it('locks for 15 minutes from the 10th failure within 15 minutes', () => {
    assert.equal(lockedUntil(Array.from({ length: 9 }, (_, i) => at(i))), 0);
    assert.equal(lockedUntil(Array.from({ length: 10 }, (_, i) => at(i))), end(9 + 15));
    assert.equal(lockedUntil([...Array.from({ length: 9 }, () => at(0)), at(14.99)]), end(14.99 + 15));
  });

  it('does not count failures 15 minutes apart or more together', () => {
    assert.equal(lockedUntil([...Array.from({ length: 5 }, () => at(0)), ...Array.from({ length: 5 }, () => at(15))]), 0);
  });
});
