// What can go wrong, as the exit codes of cli/README.md see it: a failure (1) or a usage error (2).
// main.ts prints the message as one line on stderr and exits with the code.

export class CliError extends Error {
  readonly exitCode: 1 | 2;

  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Bad or missing arguments the parser could not catch (no product for this folder, nothing to update). */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** An error answer from the API: its `detail`, or the HTTP status when the body is not the API's envelope. */
export class ApiError extends CliError {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(detailOf(status, body));
    this.status = status;
    this.body = body;
  }
}

function detailOf(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string') return body.detail;
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  return `the server answered HTTP ${status}${text ? `: ${text}` : ''}`;
}
