// `npm start` builds only the parts whose sources changed (scripts/build-changed.mjs): a part is
// stale when the text of its inputs, or what its front end imports from outside its folder, is not
// what it was last built from, or its output is missing; a file touched but unchanged is not a change.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isStale, PARTS, recordBuilt } from '../../scripts/build-changed.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('scripts/build-changed.mjs', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const stale = () => PARTS.filter((part) => isStale(root, part)).map((part) => part.name);

  before(() => {
    // A checkout in miniature: each part's sources and output, the widget importing from src/lib.
    root = mkdtempSync(join(tmpdir(), 'loopdesk-build-changed-'));
    for (const file of ['package.json', 'package-lock.json', 'scripts/build-changed.mjs']) cpSync(join(ROOT, file), join(root, file));
    write('src/lib/host-domain.ts', 'export const host = 1;\n');
    write('src/main.ts', 'export const main = 1;\n');
    write('cli/src/main.ts', 'export const cli = 1;\n');
    write('web/app/src/app.tsx', 'export const app = 1;\n');
    write('web/widget/src/frame.tsx', "import { host } from '../../../src/lib/host-domain.js';\nexport const frame = host;\n");
    for (const part of PARTS) {
      write(part.output, 'built\n');
      recordBuilt(root, part);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('runs before npm start; npm run build builds every part with it, recording what each was built from', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(scripts.prestart, 'node scripts/build-changed.mjs');
    assert.equal(scripts.build, 'node scripts/build-changed.mjs --all');
    for (const part of PARTS) assert.ok(scripts[part.script], `npm run ${part.script}`);
  });

  it('builds nothing when nothing changed, even when files were touched', () => {
    assert.deepEqual(stale(), []);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/main.ts'), later, later);
    assert.deepEqual(stale(), []);
  });

  it('builds the part whose source changed, and only it', () => {
    write('web/app/src/app.tsx', 'export const app = 2;\n');
    assert.deepEqual(stale(), ['app']);
    recordBuilt(root, PARTS.find((part) => part.name === 'app')!);
    assert.deepEqual(stale(), []);
  });

  it('builds a front end again when a file it imports from outside its folder changed', () => {
    write('src/lib/host-domain.ts', 'export const host = 2;\n');
    assert.deepEqual(stale(), ['server', 'widget']);
    for (const part of PARTS) recordBuilt(root, part);
  });

  it('builds a part whose output is missing, and every part when the dependencies changed', () => {
    rmSync(join(root, 'cli/dist/main.js'));
    assert.deepEqual(stale(), ['cli']);
    write('cli/dist/main.js', 'built\n');
    write('package-lock.json', '{}\n');
    assert.deepEqual(stale(), ['server', 'cli', 'app', 'widget']);
  });
});
