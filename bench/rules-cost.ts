// What a workspace's automation rules cost the writes that trigger them (docs/automation.md,
// "Cost"; docs/benchmarks.md, "Automation rules"): the server's CPU per conversation created
// (`POST /api/v1/conversations`, the first message the contact's) and per contact message (a
// visitor's widget message), with no rules and with 50 active ones, in one server on one seeded
// database. A write's figure is the server's CPU (user + system, the regex worker thread included)
// from its first request until everything it set off is done: the events fanned out, the rule
// jobs run (after the write's commit, in the same process) and the conversation jobs (summary,
// triage) finished; divided by the writes. A third phase measures the same 50 rules each with one
// more condition that never holds (the contact's address is a reserved one nobody writes from):
// what rules cost a write when none acts. The phases alternate, every other round in reverse
// (none, rules, idle; idle, rules, none; …), so the machine's drift and the visitors' growing
// conversations (each contact message makes the next one's events longer) fall on all three alike.
//   npm run build && node --import ./test/helpers/typescript-hooks.mjs bench/rules-cost.ts [--db sqlite|postgres]
//     [--conversations 10000] [--writes 300] [--rounds 2] [--cpu-profile DIR]
import { parseArgs } from 'node:util';
import { createServices } from '../src/services.js';
import { assertDistIsCurrent } from '../test/helpers/dist-freshness.js';
import type { BenchDb } from './args.js';
import { asDeployed, backlogDone, withDatabase } from './bench-database.js';
import { databaseFactory } from './databases.js';
import { cpuMs, startLoopdesk } from './processes.js';
import { inLanes, seedWorkspace } from './seed.js';
import { issueDescription, issueTitle, messageBody, pick, seededRandom } from './texts.js';
import { postJson, startConversation, startSessions, type WidgetProduct } from './widget.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    conversations: { type: 'string', default: '10000' },
    writes: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '2' },
    /** A directory for the server's CPU profile (node --cpu-prof), written when it stops. */
    'cpu-profile': { type: 'string' },
  },
});
const db = values.db as BenchDb;
const CONVERSATIONS = Number(values.conversations);
const WRITES = Number(values.writes);
const ROUNDS = Number(values.rounds);
/** Requests in flight at once during a phase. */
const CONCURRENCY = 8;
/** Widget visitors writing the contact messages, each into the conversation it started. */
const VISITORS = 50;
const RULES = 50;
const PRODUCT_NAMES = ['Web App', 'Mobile', 'Billing', 'Widget', 'Docs'];
const progress = (message: string) => process.stderr.write(`bench: ${message}\n`);

const WORDS = ['checkout', 'invoice', 'password', 'refund', 'crash', 'slow', 'export', 'login', 'payment', 'android'];
const TAGS = ['billing', 'bug', 'vip', 'mobile', 'urgent-review', 'login', 'export', 'payments', 'ios', 'churn-risk'];

/**
 * 50 rules as a team of five grows them: 20 on conversation.created, 20 on message.created, 10 on
 * conversation.updated; conditions on the product, the contact's address, the message's words,
 * the priority and status; one `matches`; actions tagging, setting the priority and assigning.
 * Each holds for a few writes only, as routing rules do: the run prints how many acted.
 */
function ruleSet(products: string[], members: string[]): { name: string; event: string; conditions: object[]; actions: object[] }[] {
  const events = [...Array(20).fill('conversation.created'), ...Array(20).fill('message.created'), ...Array(10).fill('conversation.updated')];
  return events.map((event, i) => {
    const conditions: object[] = [];
    switch (i % 5) {
      case 0: conditions.push({ field: 'product_id', operator: 'equals', value: products[i % products.length] }); break;
      case 1: conditions.push({ field: 'priority', operator: 'in', value: ['high', 'urgent'] }); break;
      case 2: conditions.push({ field: 'contact.email', operator: 'contains', value: `customer${i}` }); break;
      case 3: conditions.push({ field: 'status', operator: 'equals', value: 'open' }); break;
      case 4: conditions.push({ field: 'source', operator: 'in', value: ['chat', 'form'] }); break;
    }
    conditions.push(event === 'conversation.updated'
      ? { field: 'title', operator: 'contains', value: WORDS[i % WORDS.length] }
      : { field: 'message.body', operator: 'contains', value: WORDS[i % WORDS.length] });
    if (i === 7) conditions.push({ field: 'message.body', operator: 'matches', value: '\\b(refund|chargeback)s?\\b' });
    const actions: object[] = [{ type: 'add_tags', tags: [TAGS[i % TAGS.length]] }];
    if (i % 3 === 0) actions.push({ type: 'set_priority', priority: i % 2 === 0 ? 'high' : 'normal' });
    if (i % 4 === 0) actions.push({ type: 'assign', member_id: members[i % members.length] });
    return { name: `Rule ${i + 1}`, event, conditions, actions };
  });
}

async function seed(url: string) {
  return withDatabase(url, async (database) => {
    const services = createServices(database, { searchFoldMs: 0 });
    const random = seededRandom(CONVERSATIONS);
    const workspace = await seedWorkspace(services, 'Rules', 4);
    const products: string[] = [];
    for (const name of PRODUCT_NAMES) products.push((await services.products.create(workspace.actor, { name }, '')).id);
    await inLanes(CONVERSATIONS, 8, async (index) => {
      const contact = Math.floor(random() * 2000);
      const conversation = await services.conversations.create(workspace.actor, {
        product_id: products[index % products.length], title: issueTitle(random), body: `${issueTitle(random)}. ${issueDescription(random)}`,
        contact: { name: `Customer ${contact}`, email: `customer${contact}@example.test` },
      });
      await services.conversations.postMessage(workspace.actor, conversation.id, { body: messageBody(random) });
    });
    await asDeployed(database);
    return { key: workspace.key, products, members: workspace.memberIds };
  });
}

async function main(): Promise<void> {
  assertDistIsCurrent();
  const factory = await databaseFactory(db);
  try {
    const url = await factory.fresh('rules_cost');
    let started = performance.now();
    const seeded = await seed(url);
    progress(`seeded ${CONVERSATIONS} conversations in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const server = await startLoopdesk({ databaseUrl: url, logLevel: 'warn', cpuProfileDir: values['cpu-profile'] ?? null });
    try {
      const { baseUrl, pid } = server;
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${baseUrl}${path}`, {
          method, headers: { authorization: `Bearer ${seeded.key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
        });
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
        return res.status === 204 ? null : (await res.json()).data;
      };
      started = performance.now();
      await backlogDone(url);
      progress(`the server worked through seeding's backlog in ${((performance.now() - started) / 1000).toFixed(0)} s`);

      const widgetProduct = await api('PATCH', `/api/v1/products/${seeded.products[3]}`, { widget_config: { proof_of_work: false } });
      const product: WidgetProduct = { id: widgetProduct.id, widgetKey: widgetProduct.widget_key, base: `/widget/v1/${widgetProduct.widget_key}` };
      const tokens = await startSessions(baseUrl, product, VISITORS, (i) => ({ name: `Visitor ${i}`, email: `visitor${i}@example.test` }));
      const conversations = await Promise.all(tokens.map((token, i) => startConversation(baseUrl, product, token, `Hello, visitor ${i} here`)));
      const rules: string[] = [];
      for (const rule of ruleSet(seeded.products, seeded.members)) rules.push((await api('POST', '/api/v1/automation-rules', { ...rule, active: false })).id);
      // The idle set: each rule as above, its conditions tested as far as they hold, then one more that never does.
      const idleRules: string[] = [];
      for (const rule of ruleSet(seeded.products, seeded.members)) {
        const conditions = [...rule.conditions, { field: 'contact.email', operator: 'equals', value: 'nobody@example.invalid' }];
        idleRules.push((await api('POST', '/api/v1/automation-rules', { ...rule, name: `Idle ${rule.name}`, conditions, active: false })).id);
      }
      const setActive = async (ids: string[], active: boolean) => {
        for (const id of ids) await api('PATCH', `/api/v1/automation-rules/${id}`, { active });
      };
      await backlogDone(url);

      const random = seededRandom(7);
      const writes = {
        create: (n: number) => api('POST', '/api/v1/conversations', {
          product_id: seeded.products[n % seeded.products.length], title: issueTitle(random), body: `${issueTitle(random)}. ${issueDescription(random)} ${pick(random, WORDS)}`,
          contact: { name: `Customer ${n % 2000}`, email: `customer${n % 2000}@example.test` },
        }),
        message: (n: number) => postJson(baseUrl, tokens[n % VISITORS], `${product.base}/conversations/${conversations[n % VISITORS]}/messages`,
          { body: `${messageBody(random)} ${pick(random, WORDS)}` }),
      };
      /** The server's CPU per write, in µs, for `WRITES` writes and all they set off. */
      const measure = async (write: (n: number) => Promise<unknown>) => {
        const before = cpuMs(pid);
        await inLanes(WRITES, CONCURRENCY, async (n) => {
          await write(n);
        });
        await backlogDone(url);
        return ((cpuMs(pid) - before) * 1000) / WRITES;
      };
      const runsSoFar = async () => {
        let sum = 0;
        for (const offset of [0, 100]) sum += ((await api('GET', `/api/v1/automation-rules?limit=100&offset=${offset}`)) as { runs: number }[]).reduce((total, rule) => total + rule.runs, 0);
        return sum;
      };
      type Phase = 'none' | 'rules' | 'idle';
      const figures: Record<string, Record<Phase, number[]> & { acted: number; idleActed: number }> = {
        create: { none: [], rules: [], idle: [], acted: 0, idleActed: 0 }, message: { none: [], rules: [], idle: [], acted: 0, idleActed: 0 },
      };
      const activeIn: Record<Phase, string[]> = { none: [], rules, idle: idleRules };
      let active: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = ['none', 'rules', 'idle'] as const;
        for (const phase of round % 2 === 0 ? order : [...order].reverse()) {
          await setActive(active, false);
          active = activeIn[phase];
          await setActive(active, true);
          await backlogDone(url);
          for (const kind of ['create', 'message'] as const) {
            const runsBefore = await runsSoFar();
            const us = await measure(writes[kind]);
            figures[kind][phase].push(us);
            const acted = (await runsSoFar()) - runsBefore;
            if (phase === 'rules') figures[kind].acted += acted;
            if (phase === 'idle') figures[kind].idleActed += acted;
            progress(`round ${round + 1}, ${phase === 'none' ? 'no rules' : phase === 'rules' ? `${RULES} rules` : `${RULES} rules none of which holds`}, ${kind}: ${us.toFixed(0)} µs per write`);
          }
        }
      }
      const mean = (xs: number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length;
      const listed = (xs: number[]) => `${mean(xs).toFixed(0)} µs (${xs.map((x) => x.toFixed(0)).join(', ')})`;
      console.log('| database | conversations | write | writes × rounds | CPU per write, no rules | with 50 rules | difference | rules that acted, per write | 50 rules none of which holds | difference |');
      console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|');
      for (const [kind, label] of [['create', 'POST /api/v1/conversations'], ['message', 'widget contact message']] as const) {
        const { none, rules: withRules, idle, acted, idleActed } = figures[kind];
        if (idleActed > 0) throw new Error(`the idle rules acted ${idleActed} times`);
        console.log(`| ${db} | ${CONVERSATIONS} | ${label} | ${WRITES} × ${ROUNDS} | ${listed(none)} | ${listed(withRules)} | **${(mean(withRules) - mean(none)).toFixed(0)} µs** | ` +
          `${(acted / (WRITES * ROUNDS)).toFixed(2)} | ${listed(idle)} | **${(mean(idle) - mean(none)).toFixed(0)} µs** |`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    factory.dispose();
  }
}

await main();
