// The README's configuration table names every variable the server reads (src/config.ts, the only
// reader of process.env), each spelled out in full, and nothing it does not read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The variable names in the first cell of each row of the README's "Configuration" table. */
function tableVariables(): Set<string> {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Configuration\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!)));
}

/** The names loadConfig reads from an environment, each branch taken once (every optional part switched on). */
function namesRead(): Set<string> {
  const names = new Set<string>();
  const recording = (values: Record<string, string>) => new Proxy(values, {
    get: (target, name) => {
      if (typeof name === 'string') names.add(name);
      return target[name as string];
    },
    has: (target, name) => {
      if (typeof name === 'string') names.add(name);
      return name in target;
    },
  });
  loadConfig(recording({}), false);
  loadConfig(recording({
    LOOPDESK_S3_BUCKET: 'attachments', LOOPDESK_S3_ACCESS_KEY_ID: 'key', LOOPDESK_S3_SECRET_ACCESS_KEY: 'secret', LOOPDESK_S3_ENDPOINT: 'http://127.0.0.1:9000',
    LOOPDESK_SMTP_URL: 'smtp://127.0.0.1:2525', LOOPDESK_MAIL_FROM: 'support@example.com',
    LOOPDESK_INBOUND_DOMAIN: 'in.example.com', LOOPDESK_SMTP_LISTEN: '127.0.0.1:2526',
    LOOPDESK_DEDUP_PROVIDER: 'openai', LOOPDESK_OPENAI_API_KEY: 'sk', LOOPDESK_OPENAI_CHAT_MODEL: 'judge',
    LOOPDESK_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', LOOPDESK_LLM_MODEL: 'qwen',
    LOOPDESK_METRICS_TOKEN: 'token',
  }), false);
  // Whatever a branch these environments miss would read: every name the source spells out.
  for (const [name] of read('src/config.ts').matchAll(/\bLOOPDESK_[A-Z0-9_]*[A-Z0-9]\b/g)) names.add(name);
  return names;
}

describe('README, "Configuration"', () => {
  it('lists every variable src/config.ts reads, and only those', () => {
    const listed = tableVariables();
    const read = namesRead();
    assert.ok(listed.size > 20, `the table was found (${listed.size} names)`);
    assert.deepEqual([...read].filter((name) => !listed.has(name)).sort(), [], 'read but not in the README\'s table');
    assert.deepEqual([...listed].filter((name) => !read.has(name)).sort(), [], 'in the README\'s table but never read');
  });
});
