// The `openai` matcher's transport: any server speaking the OpenAI embeddings and chat
// completions wire format (OpenAI, Azure, Ollama, vLLM, LM Studio). One retry on a 5xx, a 429,
// a timeout or a network error; the API key goes only into the Authorization header.
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DetectionError } from './detector.js';
import type { Embedder, JudgedCandidate, Judge } from './embedding-detector.js';

export interface OpenAiEndpoint {
  /** e.g. `https://api.openai.com/v1`; paths such as `/embeddings` are appended. */
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
}

const retryable = (status: number) => status >= 500 || status === 429;

async function postJson(endpoint: OpenAiEndpoint, path: string, body: unknown): Promise<unknown> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}${path}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(endpoint.timeoutMs) });
    } catch (error) {
      if (attempt < 2) continue;
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new DetectionError(timedOut ? `${path} did not answer within ${endpoint.timeoutMs} ms` : `${path} could not be reached`, { cause: error });
    }
    if (retryable(response.status) && attempt < 2) {
      await response.body?.cancel();
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new DetectionError(`${path} answered HTTP ${response.status}`);
    }
    try {
      return await response.json();
    } catch (error) {
      throw new DetectionError(`${path} answered a body that is not JSON`, { cause: error });
    }
  }
}

const EmbeddingsAnswer = Type.Object({
  data: Type.Array(Type.Object({ index: Type.Integer({ minimum: 0 }), embedding: Type.Array(Type.Number(), { minItems: 1 }) })),
});

export function openAiEmbedder(endpoint: OpenAiEndpoint, model: string): Embedder {
  return {
    name: `openai:${model}`,
    model,
    async embed(texts) {
      const answer = await postJson(endpoint, '/embeddings', { model, input: texts });
      if (!Value.Check(EmbeddingsAnswer, answer) || answer.data.length !== texts.length) {
        throw new DetectionError('/embeddings answered an unexpected shape');
      }
      const vectors: Float32Array[] = [];
      for (const item of answer.data) vectors[item.index] = Float32Array.from(item.embedding);
      if (vectors.length !== texts.length || vectors.some((v) => v === undefined)) {
        throw new DetectionError('/embeddings answered an unexpected shape');
      }
      return vectors;
    },
    async close() {},
  };
}

const ChatAnswer = Type.Object({
  choices: Type.Array(Type.Object({ message: Type.Object({ content: Type.String() }) }), { minItems: 1 }),
});

const INSTRUCTIONS = [
  'You deduplicate a product backlog. You receive a new issue report and numbered existing issues.',
  'Answer whether the report describes the same problem or request as one of the existing issues',
  '(in any language or wording). A related but different problem is not the same.',
  'Answer with exactly one JSON object and nothing else: {"duplicate_of": <number of the matching issue>}',
  'or {"duplicate_of": null} when none is the same.',
].join(' ');

export function openAiJudge(endpoint: OpenAiEndpoint, model: string): Judge {
  return {
    name: `judge:${model}`,
    async choose(report: string, candidates: JudgedCandidate[]) {
      const listing = candidates.map((c, i) => `${i + 1}. ${c.text}`).join('\n\n');
      const answer = await postJson(endpoint, '/chat/completions', {
        model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: `New report:\n${report}\n\nExisting issues:\n${listing}` },
        ],
      });
      if (!Value.Check(ChatAnswer, answer)) throw new DetectionError('/chat/completions answered an unexpected shape');
      return candidateChosen(answer.choices[0].message.content, candidates);
    },
  };
}

/** The candidate id a judge's answer names; anything but the exact expected JSON is a failure. */
export function candidateChosen(content: string, candidates: JudgedCandidate[]): string | null {
  const Verdict = Type.Object(
    { duplicate_of: Type.Union([Type.Integer({ minimum: 1, maximum: candidates.length }), Type.Null()]) },
    { additionalProperties: false },
  );
  let verdict: unknown;
  try {
    verdict = JSON.parse(content);
  } catch (error) {
    throw new DetectionError('the judge answered text that is not JSON', { cause: error });
  }
  if (!Value.Check(Verdict, verdict)) throw new DetectionError('the judge answered JSON of an unexpected shape');
  return verdict.duplicate_of === null ? null : candidates[verdict.duplicate_of - 1].id;
}
