// Evaluations embed the same ~16,000 texts run after run (a full e5 run took 25 minutes of model
// time on a 2-core machine). `cachedEmbedder` keeps every vector a model returned in a file of its
// own outside the repository, keyed by the text's SHA-256, and asks the model only for texts it
// has not seen: a second run of `eval:triage` or `train:triage` costs the cosines, not the model.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Embedder } from '../embedding-detector.js';

const HASH_BYTES = 32;

const hashOf = (text: string): string => createHash('sha256').update(text).digest('base64');

/** Records of (SHA-256 of the text, the vector as float32), all of one model's dimension. */
function load(file: string): { vectors: Map<string, Float32Array>; dimension: number | null } {
  const vectors = new Map<string, Float32Array>();
  if (!existsSync(file)) return { vectors, dimension: null };
  const bytes = readFileSync(file);
  const dimension = bytes.readUInt32LE(0);
  const record = HASH_BYTES + 4 * dimension;
  for (let at = 4; at + record <= bytes.length; at += record) {
    const hash = bytes.subarray(at, at + HASH_BYTES).toString('base64');
    vectors.set(hash, new Float32Array(bytes.buffer.slice(bytes.byteOffset + at + HASH_BYTES, bytes.byteOffset + at + record)));
  }
  return { vectors, dimension };
}

/** `embedder`, answering from `dir`/<model>.vectors what it embedded before, and adding what it embeds now. */
export function cachedEmbedder(embedder: Embedder, dir: string): Embedder {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${embedder.model.replace(/[^\w.-]+/g, '_')}.vectors`);
  const cache = load(file);
  return {
    name: embedder.name,
    model: embedder.model,
    async embed(texts) {
      const missing = [...new Set(texts.filter((text) => !cache.vectors.has(hashOf(text))))];
      if (missing.length > 0) {
        const fresh = await embedder.embed(missing);
        const records: Buffer[] = [];
        for (const [i, vector] of fresh.entries()) {
          if (cache.dimension === null) {
            cache.dimension = vector.length;
            const header = Buffer.alloc(4);
            header.writeUInt32LE(vector.length);
            appendFileSync(file, header);
          }
          const hash = hashOf(missing[i]);
          cache.vectors.set(hash, Float32Array.from(vector));
          records.push(Buffer.from(hash, 'base64'), Buffer.from(Float32Array.from(vector).buffer));
        }
        appendFileSync(file, Buffer.concat(records));
      }
      return texts.map((text) => cache.vectors.get(hashOf(text))!);
    },
    close: () => embedder.close(),
  };
}
