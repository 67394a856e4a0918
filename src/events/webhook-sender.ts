// One webhook attempt: the Standard Webhooks signature and headers, a POST to the addresses the
// SSRF guard checked (resolved and checked again at most every 5 s per host), and its outcome. Anything but a 2xx
// status line within the timeout is a failure; redirects are not followed.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { oneLine } from '../lib/one-line.js';
import { checkedAddressCache, ForbiddenUrlError, pinnedLookup, type UrlGuard } from './ssrf.js';

export const USER_AGENT = 'Loopdesk-Webhooks/1.0 (+https://www.standardwebhooks.com)';
/** Standard Webhooks secrets: `whsec_` + base64 of the key's bytes. */
export const SECRET_PREFIX = 'whsec_';
/** How much of a failed answer's body last_error keeps. */
const BODY_EXCERPT = 200;
const ERROR_MAX = 300;

/**
 * `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the base64-decoded secret after
 * `whsec_`: what the `standardwebhooks` package's Webhook.verify computes.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** An endpoint's secrets as stored: the current one, and the one before the last rotation with when it stops signing. */
export interface EndpointSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** Until when the previous secret signs, as seen at `now`; null when it no longer does. */
export function previousSecretSignsUntil(secrets: Omit<EndpointSecrets, 'secret'>, now: string): string | null {
  const until = secrets.previous_secret === null ? null : secrets.previous_secret_expires_at;
  return until !== null && Date.parse(until) > Date.parse(now) ? until : null;
}

/** The secrets that sign an attempt made at `now`: the current one, and the previous one while it still signs. */
export const signingSecrets = (secrets: EndpointSecrets, now: string): string[] =>
  previousSecretSignsUntil(secrets, now) === null ? [secrets.secret] : [secrets.secret, secrets.previous_secret!];

export interface SignedRequest {
  url: string;
  /** Each signs the request: `webhook-signature` lists one signature per secret (Standard Webhooks allows several). */
  secrets: readonly string[];
  /** The delivery id: the `webhook-id` header. */
  id: string;
  /** Unix seconds: the `webhook-timestamp` header. */
  timestamp: number;
  body: string;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed, short and without secrets; null on success. */
  error: string | null;
}

/** The attempt was called off by its caller (shutdown): its outcome is unknown. */
export class AttemptCancelled extends Error {
  constructor() {
    super('attempt cancelled');
    this.name = 'AttemptCancelled';
  }
}

/** An attempt under way. */
export interface Attempt {
  /** The outcome; rejects with AttemptCancelled when `cancel` came first. */
  result: Promise<AttemptResult>;
  cancel(): void;
}

interface Answer {
  status: number;
  excerpt: string;
}

function failure(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  if (error instanceof ForbiddenUrlError) return oneLine(error.message, ERROR_MAX);
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host name does not resolve (${code})`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return oneLine(code ? `${code}: ${message}` : String(message ?? error), ERROR_MAX);
}

function describeAnswer({ status, excerpt }: Answer): string {
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  const body = oneLine(excerpt, BODY_EXCERPT);
  return `HTTP ${status}${redirect}${body ? `: ${body}` : ''}`;
}

export interface SenderOptions {
  guard: Pick<UrlGuard, 'addressesOf'>;
  timeoutMs: number;
  /** Sockets kept per receiver (keep-alive): the dispatcher's concurrency. */
  maxSockets: number;
}

export function createWebhookSender({ guard, timeoutMs, maxSockets }: SenderOptions) {
  const addressesOf = checkedAddressCache((url) => guard.addressesOf(url));
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };

  /** The status line and, for a failure, the start of the body; `started` gets the request, for `stop` to destroy. */
  function post(
    target: URL, headers: Record<string, string | number>, body: string, lookup: http.RequestOptions['lookup'], started: (request: http.ClientRequest) => void,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const transport = target.protocol === 'https:' ? https : http;
      const agent = agents[target.protocol as keyof typeof agents];
      const request = transport.request(target, { method: 'POST', headers, agent, lookup }, (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          response.resume();
          resolve({ status, excerpt: '' });
          return;
        }
        let excerpt = '';
        const done = () => resolve({ status, excerpt });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          excerpt += chunk;
          if (excerpt.length >= BODY_EXCERPT) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      });
      request.on('error', reject);
      started(request);
      request.end(body);
    });
  }

  return {
    /**
     * Starts the attempt. One timer bounds it, DNS included; a timeout or `cancel` destroys the
     * request. (No AbortSignal: handing one to http.request, and AbortSignal.timeout and .any,
     * cost 60 % of the client's CPU per request on Node 20.)
     */
    send({ url, secrets, id, timestamp, body }: SignedRequest): Attempt {
      let stopped: 'timeout' | 'cancel' | null = null;
      let settled = false;
      let request: http.ClientRequest | null = null;
      let stop: (why: 'timeout' | 'cancel') => void = () => {};
      const halted = new Promise<never>((_, reject) => {
        stop = (why) => {
          // Once settled, the request's keep-alive socket may already serve another attempt.
          if (stopped || settled) return;
          stopped = why;
          request?.destroy();
          reject(why === 'cancel' ? new AttemptCancelled() : new Error('timed out'));
        };
      });
      halted.catch(() => {}); // awaited through the races below
      const timer = setTimeout(() => stop('timeout'), timeoutMs);
      const result = (async (): Promise<AttemptResult> => {
        try {
          const target = new URL(url);
          // DNS cannot be cancelled: the attempt stops waiting for it.
          const addresses = await Promise.race([addressesOf(target), halted]);
          const headers = {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': USER_AGENT,
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
          };
          const answer = await Promise.race([post(target, headers, body, pinnedLookup(addresses), (started) => (request = started)), halted]);
          const ok = answer.status >= 200 && answer.status < 300;
          return { ok, statusCode: answer.status, error: ok ? null : describeAnswer(answer) };
        } catch (error) {
          if (stopped === 'cancel') throw new AttemptCancelled();
          return { ok: false, statusCode: null, error: failure(error, stopped === 'timeout', timeoutMs) };
        } finally {
          settled = true;
          clearTimeout(timer);
        }
      })();
      return { result, cancel: () => stop('cancel') };
    },

    close(): void {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
