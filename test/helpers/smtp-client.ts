// An SMTP conversation by hand over a socket, for what a mail library does not let a test do:
// stop between commands (to take the database away before DATA), or hold connections open.
import { connect, type Socket } from 'node:net';

export interface SmtpReply {
  code: number;
  /** Every line of the reply, without the codes. */
  text: string;
}

export interface SmtpDialog {
  /** The server's first reply: 220, or 421 when it turns the connection away. */
  greeting: SmtpReply;
  /** Sends `lines` (a command, or a message with its closing dot) and waits for the reply. */
  send(lines: string): Promise<SmtpReply>;
  close(): void;
}

export async function openSmtpDialog(port: number): Promise<SmtpDialog> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  let waiting: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | null = null;
  let ended: Error | null = null;
  // A reply is complete at the line whose code is followed by a space (RFC 5321 4.2.1).
  const take = () => {
    const end = /^\d{3} .*\r\n/m.exec(received);
    if (!waiting) return;
    if (!end) return void (ended && waiting.reject(ended));
    const text = received.slice(0, end.index + end[0].length);
    received = received.slice(text.length);
    const { resolve } = waiting;
    waiting = null;
    resolve({ code: Number(text.slice(0, 3)), text: text.replace(/^\d{3}[ -]/gm, '').trim() });
  };
  socket.on('data', (chunk: string) => {
    received += chunk;
    take();
  });
  // An error (a reset, a refused connection) is followed by 'close', which fails the reply waited for.
  socket.on('error', () => {});
  socket.on('close', () => {
    ended = new Error(`the server closed the connection; it had sent: ${received}`);
    take();
  });
  const next = () => new Promise<SmtpReply>((resolve, reject) => {
    waiting = { resolve, reject };
    take();
  });
  const greeting = await next();
  return {
    greeting,
    send(lines) {
      socket.write(`${lines}\r\n`);
      return next();
    },
    close: () => socket.destroy(),
  };
}
