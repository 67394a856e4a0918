// The widget as the benchmarks use it, over HTTP against a running server: a product whose widget
// needs no proof of work (the server under test runs with LOOPDESK_WIDGET_RATE_LIMIT=0, see
// processes.ts), visitor sessions and their conversations. Shared by the widget's SSE fan-out
// (sse-fanout.ts --stream widget) and the widget message scenario of `npm run bench`.
import { SignJWT } from 'jose';

/** Sessions started at once. */
const SESSION_BATCH = 50;

/** POSTs JSON with a bearer token (an API key or a widget session) and returns the answer's `data`. */
export async function postJson(baseUrl: string, token: string | null, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).data;
}

export interface WidgetProduct {
  id: string;
  widgetKey: string;
  /** `/widget/v1/{widget_key}` */
  base: string;
}

/** A product whose widget starts sessions without a proof-of-work challenge. */
export async function createWidgetProduct(baseUrl: string, apiKey: string, name: string): Promise<WidgetProduct> {
  const product = await postJson(baseUrl, apiKey, '/api/v1/products', { name, widget_config: { proof_of_work: false } });
  return { id: product.id, widgetKey: product.widget_key, base: `/widget/v1/${product.widget_key}` };
}

/** An identity token for the host site's user `userId`, signed with a freshly made identity secret of the product. */
export async function identityToken(baseUrl: string, apiKey: string, product: WidgetProduct, userId: string): Promise<string> {
  const { identity_secret: secret } = await postJson(baseUrl, apiKey, `/api/v1/products/${product.id}/identity-secret`, {});
  return new SignJWT({ name: `Bench user ${userId}` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(product.widgetKey)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}

/** `count` widget sessions started with `body(i)`, SESSION_BATCH at a time; their tokens. */
export async function startSessions(baseUrl: string, product: WidgetProduct, count: number, body: (index: number) => object): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += SESSION_BATCH) {
    const batch = Array.from({ length: Math.min(SESSION_BATCH, count - i) }, (_, j) => postJson(baseUrl, null, `${product.base}/sessions`, body(i + j)));
    tokens.push(...(await Promise.all(batch)).map((session) => session.token as string));
  }
  return tokens;
}

/** Starts a conversation as the visitor of `token`; its id. */
export async function startConversation(baseUrl: string, product: WidgetProduct, token: string, body: string): Promise<string> {
  return (await postJson(baseUrl, token, `${product.base}/conversations`, { body })).id;
}
