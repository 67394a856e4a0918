// Structurally hostile mail for the parser's limits (docs/email.md, "Limits"): many parts side by
// side, or multiparts nested inside each other.

/** `count` text parts side by side (`parts`), or multiparts each inside the last, `count` deep (`nesting`). */
export function hostileMail(shape: 'parts' | 'nesting', count: number, { to = 'support@example.com', messageId = `hostile-${shape}@example.com` } = {}): Buffer {
  const head = `From: Mallory <mallory@example.com>\r\nTo: ${to}\r\nSubject: ${count} ${shape}\r\nMessage-ID: <${messageId}>\r\nMIME-Version: 1.0\r\n`;
  const text = 'Content-Type: text/plain\r\n\r\nhello\r\n';
  if (shape === 'parts') {
    return Buffer.from(`${head}Content-Type: multipart/mixed; boundary="b"\r\n\r\n${`--b\r\n${text}`.repeat(count)}--b--\r\n`);
  }
  const levels = Array.from({ length: count }, (_, level) => level);
  const opening = levels.map((level) => `Content-Type: multipart/mixed; boundary="b${level}"\r\n\r\n--b${level}\r\n`).join('');
  const closing = levels.reverse().map((level) => `--b${level}--\r\n`).join('');
  return Buffer.from(`${head}${opening}${text}${closing}`);
}
