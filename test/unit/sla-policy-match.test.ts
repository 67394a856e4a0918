// Which SLA policy applies to a conversation (src/domain/service-levels/policy-match.ts): the first
// active one by position, then created_at, whose conditions all match; tags mean any of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applicablePolicy, matchesConditions, type RankedPolicy, type SlaConditions, type SlaSubject } from '../../src/domain/service-levels/policy-match.js';

const PRODUCT = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0001';
const OTHER_PRODUCT = '0193a2b4-7c1d-7e2f-8a3b-4c5d6e7f0002';
const conversation: SlaSubject = { product_id: PRODUCT, priority: 'high', type: 'ticket', source: 'email', tags: ['Billing', 'vip'] };

describe('matchesConditions', () => {
  const cases: [what: string, conditions: SlaConditions, matches: boolean][] = [
    ['{} matches every conversation', {}, true],
    ['its product among product_ids', { product_ids: [OTHER_PRODUCT, PRODUCT] }, true],
    ['another product', { product_ids: [OTHER_PRODUCT] }, false],
    ['its priority among priorities', { priorities: ['urgent', 'high'] }, true],
    ['another priority', { priorities: ['low'] }, false],
    ['its type among types', { types: ['ticket'] }, true],
    ['another type', { types: ['idea', 'feedback'] }, false],
    ['its source among sources', { sources: ['chat', 'email'] }, true],
    ['another source', { sources: ['form'] }, false],
    ['any one of its tags, without case', { tags: ['billing', 'refunds'] }, true],
    ['none of its tags', { tags: ['refunds'] }, false],
    ['every list matching', { product_ids: [PRODUCT], priorities: ['high'], types: ['ticket'], sources: ['email'], tags: ['VIP'] }, true],
    ['all lists but one matching', { product_ids: [PRODUCT], priorities: ['high'], types: ['ticket'], sources: ['chat'], tags: ['vip'] }, false],
  ];
  for (const [what, conditions, matches] of cases) it(what, () => assert.equal(matchesConditions(conditions, conversation), matches));

  it('a conversation without tags matches no tags condition', () => {
    assert.equal(matchesConditions({ tags: ['vip'] }, { ...conversation, tags: [] }), false);
  });

  it('compares product ids without case', () => {
    assert.equal(matchesConditions({ product_ids: [PRODUCT] }, { ...conversation, product_id: PRODUCT.toUpperCase() }), true);
  });
});

describe('applicablePolicy', () => {
  const policy = (name: string, position: number, conditions: SlaConditions, extra: Partial<RankedPolicy> = {}) =>
    ({ name, position, active: true, created_at: '2026-01-01T00:00:00.000Z', conditions, ...extra });

  it('takes the first matching policy by position, whatever the order given', () => {
    const policies = [policy('catch-all', 3, {}), policy('urgent', 1, { priorities: ['urgent'] }), policy('high', 2, { priorities: ['high'] })];
    assert.equal(applicablePolicy(policies, conversation)?.name, 'high');
    assert.equal(applicablePolicy(policies, { ...conversation, priority: 'urgent' })?.name, 'urgent');
    assert.equal(applicablePolicy(policies, { ...conversation, priority: 'low' })?.name, 'catch-all');
  });

  it('skips inactive policies', () => {
    const policies = [policy('paused', 1, {}, { active: false }), policy('next', 2, { types: ['ticket'] })];
    assert.equal(applicablePolicy(policies, conversation)?.name, 'next');
  });

  it('breaks a tie of positions by created_at', () => {
    const policies = [
      policy('younger', 1, {}, { created_at: '2026-02-01T00:00:00.000Z' }),
      policy('older', 1, {}, { created_at: '2026-01-01T00:00:00.000Z' }),
    ];
    assert.equal(applicablePolicy(policies, conversation)?.name, 'older');
  });

  it('answers null when no active policy matches, or there are none', () => {
    assert.equal(applicablePolicy([policy('ideas', 1, { types: ['idea'] }), policy('off', 2, {}, { active: false })], conversation), null);
    assert.equal(applicablePolicy([], conversation), null);
  });
});
