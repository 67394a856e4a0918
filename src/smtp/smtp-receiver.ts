// The built-in SMTP receiver (docs/email.md), on when LOOPDESK_SMTP_LISTEN is set: mail for a
// product's inbound address (or a conversation's reply address) is taken and handed to the same
// inbound function as POST /api/v1/inbound/email; any other recipient is refused at RCPT TO (550),
// so the sending server bounces it to its sender and nothing is relayed. A message over the size
// limit is refused (552): what passes the limit is read and dropped, never kept, and never parsed.
// A mail the parser refuses (too many parts) is refused for good (554); a failure of ours is a 451,
// which the sender retries. The connections are capped, so the mail held in memory is too.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { SMTP_MAX_CONNECTIONS_DEFAULT } from '../config.js';
import type { InboundService, InboundTarget } from '../domain/email/inbound.service.js';
import { AppError } from '../errors.js';

export interface SmtpReceiverOptions {
  inbound: Pick<InboundService, 'targetOf' | 'receiveForTargets'>;
  host: string;
  port: number;
  /** The largest message taken, in bytes (announced in EHLO as SIZE). */
  maxBytes: number;
  /** Connections open at once (LOOPDESK_SMTP_MAX_CONNECTIONS's default unless given); more are told to come back later (421). */
  maxConnections?: number;
  /** Hears of failures (a database down, …); the sender was told to retry. */
  onError: (error: unknown) => void;
}

const reply = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

/**
 * The message, or null when it passed `maxBytes`: from there on the rest is read to its end (the
 * sender hears 552 only after it) and dropped as it arrives, so a connection holds `maxBytes` at most.
 */
function readWithin(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | null = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) chunks = null;
      else chunks?.push(chunk);
    });
    stream.once('end', () => resolve(chunks && Buffer.concat(chunks, bytes)));
    stream.once('error', reject);
  });
}

export async function startSmtpReceiver({ inbound, host, port, maxBytes, maxConnections = SMTP_MAX_CONNECTIONS_DEFAULT, onError }: SmtpReceiverOptions) {
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
    maxClients: maxConnections,
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
        const raw = await readWithin(stream, maxBytes);
        if (raw === null) return callback(reply(552, `5.3.4 message over ${maxBytes} bytes`));
        await inbound.receiveForTargets(raw, await targetsOf(session));
        callback();
      })().catch((error) => {
        // The mail's own fault (the parser refused it): the same bytes would fail again, so the sender bounces it.
        if (error instanceof AppError && error.code === 'validation_error') return callback(reply(554, `5.6.0 ${error.message}`));
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
