import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  PREFIX_PATTERN, SLUG_MAX, SLUG_PATTERN, freePrefix, freeSlug, prefixFromName, slugFromName, slugStem,
} from '../../src/domain/products/product-naming.js';

describe('slugFromName', () => {
  const cases: [string, string][] = [
    ['Café Crème', 'cafe-creme'],
    ['Acme Mobile App', 'acme-mobile-app'],
    ['  Hello,   World!!  ', 'hello-world'],
    ['ÀÉÎÕÜ ñ Ç', 'aeiou-n-c'],
    ['Version 2.0 (beta)', 'version-2-0-beta'],
    ['UPPER_case__mixed', 'upper-case-mixed'],
    ['!!!', 'product'],
    ['', 'product'],
    ['日本語', 'product'],
  ];
  for (const [name, slug] of cases) {
    it(`${JSON.stringify(name)} → ${JSON.stringify(slug)}`, () => assert.equal(slugFromName(name), slug));
  }

  it('cuts to 64 characters', () => {
    const slug = slugFromName('a'.repeat(100));
    assert.equal(slug, 'a'.repeat(SLUG_MAX));
  });

  it('trims a hyphen left at the cut', () => {
    // Character 64 is the hyphen between the two words.
    const slug = slugFromName(`${'a'.repeat(63)} bbbb`);
    assert.equal(slug, 'a'.repeat(63));
  });

  it('always returns a valid slug', () => {
    for (const name of ['-x-', ' - ', 'a--b', `${'ab-'.repeat(30)}`, 'ﬁne ﬂow']) {
      const slug = slugFromName(name);
      assert.match(slug, SLUG_PATTERN, name);
      assert.ok(slug.length <= SLUG_MAX, name);
    }
  });
});

describe('freeSlug', () => {
  it('keeps a free slug', () => assert.equal(freeSlug('app', new Set(['other'])), 'app'));
  it('adds -2 when taken', () => assert.equal(freeSlug('app', new Set(['app'])), 'app-2'));
  it('counts on past taken suffixes', () => assert.equal(freeSlug('app', new Set(['app', 'app-2', 'app-3'])), 'app-4'));
  it('fills the first gap', () => assert.equal(freeSlug('app', new Set(['app', 'app-3'])), 'app-2'));

  it('shortens the base so the suffix fits in 64 characters', () => {
    const base = 'a'.repeat(SLUG_MAX);
    assert.equal(freeSlug(base, new Set([base])), `${'a'.repeat(62)}-2`);
    const taken = new Set([base, ...Array.from({ length: 8 }, (_, i) => `${'a'.repeat(62)}-${i + 2}`)]);
    assert.equal(freeSlug(base, taken), `${'a'.repeat(61)}-10`);
  });

  it('never leaves a double hyphen where the base is cut', () => {
    const base = `${'a'.repeat(62)}-b`;
    const slug = freeSlug(base, new Set([base]));
    assert.equal(slug, `${'a'.repeat(62)}-2`);
    assert.match(slug, SLUG_PATTERN);
  });
});

describe('slugStem', () => {
  it('is the base itself for a short base', () => assert.equal(slugStem('help-center'), 'help-center'));

  it('starts every slug freeSlug can return, also when the base is cut', () => {
    for (const base of ['a'.repeat(64), `${'ab-'.repeat(21)}a`, `${'a'.repeat(52)}-${'b'.repeat(11)}`, 'x'.repeat(53)]) {
      const stem = slugStem(base);
      const taken = new Set<string>();
      for (let i = 0; i < 150; i++) {
        const slug = freeSlug(base, taken);
        assert.ok(slug.startsWith(stem), `${slug} starts with ${stem}`);
        assert.match(slug, SLUG_PATTERN);
        assert.ok(slug.length <= SLUG_MAX);
        taken.add(slug);
      }
    }
  });
});

describe('prefixFromName', () => {
  const cases: [string, string][] = [
    ['Acme Mobile App', 'AMA'],
    ['Widget', 'WID'],
    ['acme mobile', 'AM'],
    ['One Two Three Four', 'OTT'],
    ['Go', 'GO'],
    ['x', 'X'],
    ['  spaced   out  ', 'SO'],
    ['Café Crème', 'CC'],
    ['Écran', 'ECR'],
    ['3D Printer', '3P'],
    ['!!! ???', 'P'],
    ['', 'P'],
    ['日本語', 'P'],
  ];
  for (const [name, prefix] of cases) {
    it(`${JSON.stringify(name)} → ${JSON.stringify(prefix)}`, () => {
      assert.equal(prefixFromName(name), prefix);
      assert.match(prefix, PREFIX_PATTERN);
    });
  }
});

describe('freePrefix', () => {
  it('keeps a free prefix', () => assert.equal(freePrefix('WID', new Set(['AMA'])), 'WID'));
  it('replaces the last character by 2 when taken', () => assert.equal(freePrefix('WID', new Set(['WID'])), 'WI2'));
  it('then 3…9', () => assert.equal(freePrefix('WID', new Set(['WID', 'WI2', 'WI3'])), 'WI4'));

  it('then letters, skipping the wanted prefix itself', () => {
    const digits = ['WI2', 'WI3', 'WI4', 'WI5', 'WI6', 'WI7', 'WI8', 'WI9'];
    assert.equal(freePrefix('WID', new Set(['WID', ...digits])), 'WIA');
    assert.equal(freePrefix('WID', new Set(['WID', ...digits, 'WIA', 'WIB', 'WIC'])), 'WIE');
  });

  it('works on one- and two-character prefixes', () => {
    assert.equal(freePrefix('P', new Set(['P'])), '2');
    assert.equal(freePrefix('AM', new Set(['AM', 'A2'])), 'A3');
  });

  it('finds a free prefix while one exists', () => {
    const alphabet = '23456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const taken = new Set(['WID', ...[...alphabet].map((c) => `WI${c}`)]);
    const found = freePrefix('WID', taken);
    assert.match(found, PREFIX_PATTERN);
    assert.ok(!taken.has(found));
  });
});
