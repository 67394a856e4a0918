// LOOPDESK_SEARCH_FOLD_MS (docs/search.md, "Folding"): how long a conversation stays quiet before
// its new messages are folded into its search document.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, SEARCH_FOLD_MS_DEFAULT } from '../../src/config.js';

describe('search fold settings', () => {
  it('waits a minute by default, and takes 0 (at once) up to a day', () => {
    assert.equal(SEARCH_FOLD_MS_DEFAULT, 60_000);
    assert.equal(loadConfig({}).searchFoldMs, 60_000);
    assert.equal(loadConfig({ LOOPDESK_SEARCH_FOLD_MS: '0' }).searchFoldMs, 0);
    assert.equal(loadConfig({ LOOPDESK_SEARCH_FOLD_MS: '86400000' }).searchFoldMs, 86_400_000);
  });

  for (const value of ['-1', '86400001', 'soon', '1.5']) {
    it(`refuses LOOPDESK_SEARCH_FOLD_MS=${value}`, () => {
      assert.throws(() => loadConfig({ LOOPDESK_SEARCH_FOLD_MS: value }), (error: unknown) => error instanceof ConfigError && /LOOPDESK_SEARCH_FOLD_MS/.test(error.message));
    });
  }
});
