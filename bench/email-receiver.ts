// Mail through the built-in SMTP receiver into conversations: N mails, each a new thread from its
// own sender (the multipart/alternative sample with its From and Message-ID changed), sent by
// nodemailer over a few pooled SMTP connections to the receiver, which parses each mail and commits
// its conversation before answering 250. The receiver runs in this process with the services, as
// the server runs it, on a fresh database; the client shares the process (and its CPU) with it.
//   node --import ./test/helpers/typescript-hooks.mjs bench/email-receiver.ts [--db sqlite|postgres] [mails] [connections]
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { createDatabase } from '../src/db/database.js';
import { INBOUND_MAIL_MAX_BYTES } from '../src/http/routes/email.js';
import { createServices } from '../src/services.js';
import { startSmtpReceiver } from '../src/smtp/smtp-receiver.js';
import type { BenchDb } from './args.js';
import { databaseFactory } from './databases.js';

const args = process.argv.slice(2);
const dbFlag = args.indexOf('--db');
const db = (dbFlag >= 0 ? args.splice(dbFlag, 2)[1] : 'sqlite') as BenchDb;
const MAILS = Number(args[0] ?? 2_000);
const CONNECTIONS = Number(args[1] ?? 4);
const WARM_UP = 50;

const sample = readFileSync(new URL('../test/fixtures/email/multipart-alternative.eml', import.meta.url), 'latin1');
const mailNumber = (n: number) => Buffer.from(sample
  .replace('"Ada Lovelace" <ada@example.com>', `"Sender ${n}" <sender-${n}@example.com>`)
  .replace('<CAF1x7q0alt@mail.example.com>', `<bench-${n}@example.com>`), 'latin1');

const factory = await databaseFactory(db);
const database = createDatabase(await factory.fresh('email_receiver'));
try {
  await database.migrate();
  const services = createServices(database, {
    email: {
      inboundDomain: 'mail.bench.test', smtpListen: null, newConversationsPerSenderHour: 0, returnPath: 'reply',
      attachments: { kind: 'folder', dir: mkdtempSync(join(tmpdir(), 'loopdesk-bench-attachments-')) },
    },
  });
  const workspace = await services.admin.createWorkspace('Bench');
  const owner = await services.admin.createMember({ workspaceId: workspace.id, name: 'Owner', role: 'owner' });
  const actor = { workspaceId: workspace.id, member: { ...owner }, apiKeyId: null, credentialId: owner.id } as never;
  const product = await services.products.create(actor, { name: 'Bench' }, 'http://bench.invalid');
  const errors: unknown[] = [];
  const receiver = await startSmtpReceiver({ inbound: services.inbound, host: '127.0.0.1', port: 0, maxBytes: INBOUND_MAIL_MAX_BYTES, maxConnections: CONNECTIONS, onError: (error) => errors.push(error) });
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true, pool: true, maxConnections: CONNECTIONS, maxMessages: Infinity });
  const send = (n: number) => transport.sendMail({ envelope: { from: `sender-${n}@example.com`, to: [product.inbound_email!] }, raw: mailNumber(n) });

  await Promise.all(Array.from({ length: WARM_UP }, (_, i) => send(-1 - i)));
  const started = performance.now();
  await Promise.all(Array.from({ length: MAILS }, (_, n) => send(n)));
  const seconds = (performance.now() - started) / 1000;
  const { total } = await services.conversations.list(actor, { productId: product.id }, 'newest', { limit: 1, offset: 0 });
  transport.close();
  await receiver.close();
  if (errors.length > 0 || total !== MAILS + WARM_UP) throw new Error(`${errors.length} errors, ${total} conversations for ${MAILS + WARM_UP} mails`);
  const [load1] = loadavg();
  console.log(JSON.stringify({ db, mails: MAILS, connections: CONNECTIONS, seconds: Number(seconds.toFixed(2)), mailsPerSecond: Math.round(MAILS / seconds), loadAverage1m: Number(load1.toFixed(2)) }));
  await services.live.close();
} finally {
  await database.close();
  factory.dispose();
}
