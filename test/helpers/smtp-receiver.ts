// A real SMTP server in the test process (smtp-server), receiving what Loopdesk mails: it checks
// the credentials of the URL it hands out, parses every message (mailparser) and answers each as
// the test says: accept (250), refuse with a code (451, 550, …) or hold the answer to DATA until
// the test kills the sender. Only accepted messages count as received.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const USER = 'loopdesk';
const PASSWORD = 'smtp-secret';

export interface ReceivedMail {
  /** RCPT TO addresses. */
  recipients: string[];
  /** The MAIL FROM address (the envelope sender, where delivery reports go); null for `<>`. */
  returnPath: string | null;
  mail: ParsedMail;
}

/** How to answer a message's DATA: 250, a refusal with its reply code, or no answer at all. */
export type SmtpAnswer = { accept: true } | { refuse: number } | { hold: true };

export interface SmtpReceiver {
  /** `smtp://user:password@127.0.0.1:port`, for LOOPDESK_SMTP_URL. */
  readonly url: string;
  /** Messages answered 250, in order. */
  readonly accepted: ReceivedMail[];
  /** Every message that reached the end of DATA, however it was answered. */
  readonly attempts: ReceivedMail[];
  /** Messages whose answer is held. */
  readonly held: number;
  /** How to answer from now on (accept by default); `attempt` counts the recipients' earlier tries. */
  answer(decide: (received: ReceivedMail, attempt: number) => SmtpAnswer): void;
  waitUntil(done: (receiver: SmtpReceiver) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const recipientsOf = (envelope: { rcptTo: { address: string }[] }) => envelope.rcptTo.map((rcpt) => rcpt.address);

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const accepted: ReceivedMail[] = [];
  const attempts: ReceivedMail[] = [];
  let held = 0;
  let decide: (received: ReceivedMail, attempt: number) => SmtpAnswer = () => ({ accept: true });

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        const { mailFrom } = session.envelope;
        const received = { recipients: recipientsOf(session.envelope), returnPath: mailFrom ? mailFrom.address || null : null, mail };
        const attempt = attempts.filter((earlier) => earlier.recipients.join() === received.recipients.join()).length + 1;
        attempts.push(received);
        const answer = decide(received, attempt);
        if ('hold' in answer) {
          held++;
        } else if ('refuse' in answer) {
          callback(Object.assign(new Error('refused by the test'), { responseCode: answer.refuse }));
        } else {
          accepted.push(received);
          callback();
        }
      }, callback);
    },
  });
  // A sender killed mid-conversation resets its connection; that is expected here.
  server.on('error', () => {});
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;

  const receiver: SmtpReceiver = {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    accepted,
    attempts,
    get held() {
      return held;
    },
    answer(next) {
      decide = next;
    },
    async waitUntil(done, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(receiver)) {
        if (Date.now() > deadline) throw new Error(`smtp: not ${what} within ${timeoutMs} ms (${accepted.length} accepted of ${attempts.length})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
