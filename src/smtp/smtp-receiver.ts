// The built-in SMTP receiver (docs/email.md), on when LOOPDESK_SMTP_LISTEN is set: mail for a
// product's inbound address (or a conversation's reply address) is taken and handed to the same
// inbound function as POST /api/v1/inbound/email; any other recipient is refused at RCPT TO (550),
// so the sending server bounces it to its sender and nothing is relayed. Messages over the size
// limit are refused (552) when they pass it; a failure of ours is a 451, which the sender retries.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { InboundService, InboundTarget } from '../domain/email/inbound.service.js';

export interface SmtpReceiverOptions {
  inbound: Pick<InboundService, 'targetOf' | 'receiveForTargets'>;
  host: string;
  port: number;
  /** The largest message taken, in bytes (announced in EHLO as SIZE). */
  maxBytes: number;
  /** Hears of failures (a database down, …); the sender was told to retry. */
  onError: (error: unknown) => void;
}

const reply = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startSmtpReceiver({ inbound, host, port, maxBytes, onError }: SmtpReceiverOptions) {
  async function targetsOf(session: SMTPServerSession): Promise<InboundTarget[]> {
    const found = await Promise.all(session.envelope.rcptTo.map((recipient) => inbound.targetOf(recipient.address)));
    return found.filter((target): target is InboundTarget => target !== null);
  }

  const server = new SMTPServer({
    name: 'loopdesk',
    banner: 'Loopdesk mail receiver',
    logger: false,
    // A receiving MX: senders do not authenticate. TLS is left to a relay in front when wanted (docs/email.md).
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxBytes,
    onRcptTo(address, _session, callback) {
      inbound.targetOf(address.address).then(
        (target) => callback(target ? undefined : reply(550, `5.1.1 <${address.address}>: no such mailbox here`)),
        (error) => {
          onError(error);
          callback(reply(451, '4.3.0 temporary failure, try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      (async () => {
        const raw = await readAll(stream);
        if (stream.sizeExceeded) return callback(reply(552, `5.3.4 message over ${maxBytes} bytes`));
        await inbound.receiveForTargets(raw, await targetsOf(session));
        callback();
      })().catch((error) => {
        onError(error);
        callback(reply(451, '4.3.0 temporary failure, try again later'));
      });
    },
  });
  // Until it listens, an error (the port taken) fails the start; afterwards it is a mail's trouble.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
    server.listen(port, host);
  });
  server.on('error', onError);

  return {
    /** The port it listens on (the one given, or the one the system chose for 0). */
    port: (server.server.address() as AddressInfo).port,
    close: (): Promise<void> => new Promise((resolve) => server.close(() => resolve())),
  };
}

export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;
