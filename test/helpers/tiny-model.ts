// A tiny sentence-embedding model in transformers.js layout, written from scratch so tests run
// the real `local` matcher offline: a whitespace word-level tokenizer and an ONNX graph that is
// one Gather (embedding lookup) from input_ids to last_hidden_state, with vectors the test picks.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Protocol Buffers encoding, just enough for onnx.proto's ModelProto.
const varint = (value: number): Buffer => {
  const bytes: number[] = [];
  let rest = value;
  do {
    const low = rest % 128;
    rest = Math.floor(rest / 128);
    bytes.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  return Buffer.from(bytes);
};
const int = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);
const bytes = (field: number, value: Buffer) => Buffer.concat([varint((field << 3) | 2), varint(value.length), value]);
const text = (field: number, value: string) => bytes(field, Buffer.from(value, 'utf8'));
const message = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));

const FLOAT = 1;
const INT64 = 7;

// ValueInfoProto { name = 1; type = 2 { tensor_type = 1 { elem_type = 1; shape = 2 { dim = 1 { dim_value = 1 | dim_param = 2 } } } } }
const tensorInfo = (field: number, name: string, elemType: number, shape: (number | string)[]) =>
  message(field, text(1, name), message(2, message(1, int(1, elemType), message(2, ...shape.map((d) => message(1, typeof d === 'number' ? int(1, d) : text(2, d)))))));

/** ModelProto bytes: last_hidden_state[b, s, :] = table[input_ids[b, s]]. */
export function gatherModel(table: number[][]): Buffer {
  const dimension = table[0].length;
  const weights = Buffer.from(new Float32Array(table.flat()).buffer);
  const graph = Buffer.concat([
    // NodeProto { input = 1; output = 2; name = 3; op_type = 4 }
    message(1, text(1, 'embeddings'), text(1, 'input_ids'), text(2, 'last_hidden_state'), text(3, 'lookup'), text(4, 'Gather')),
    text(2, 'tiny-embedder'),
    // TensorProto { dims = 1; data_type = 2; name = 8; raw_data = 9 }
    message(5, int(1, table.length), int(1, dimension), int(2, FLOAT), text(8, 'embeddings'), bytes(9, weights)),
    tensorInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    tensorInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', dimension]),
  ]);
  // ModelProto { ir_version = 1; producer_name = 2; graph = 7; opset_import = 8 { domain = 1; version = 2 } }
  return Buffer.concat([int(1, 8), text(2, 'loopdesk-test'), bytes(7, graph), message(8, text(1, ''), int(2, 13))]);
}

export interface TinyModel {
  /** What LOOPDESK_MODELS_DIR points at. */
  modelsDir: string;
  model: string;
}

/**
 * Writes `<modelsDir>/<model>/` with tokenizer.json, tokenizer_config.json, config.json and
 * onnx/model_quantized.onnx (the q8 file name). Words missing from `vectors` are [UNK], a zero
 * vector; the model name decides the prefix convention (an `e5-` name gets `query: `).
 */
export function writeTinyModel(model: string, vectors: Record<string, number[]>): TinyModel {
  const modelsDir = mkdtempSync(join(tmpdir(), 'loopdesk-model-'));
  const dir = join(modelsDir, model);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const words = Object.keys(vectors);
  const dimension = vectors[words[0]].length;
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1 };
  words.forEach((word, i) => (vocab[word] = i + 2));
  const zero = new Array<number>(dimension).fill(0);
  writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), gatherModel([zero, zero, ...words.map((w) => vectors[w])]));
  const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '[PAD]'), special(1, '[UNK]')],
    normalizer: { type: 'Lowercase' },
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
  }));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'PreTrainedTokenizer', pad_token: '[PAD]', unk_token: '[UNK]', model_max_length: 512,
  }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', hidden_size: dimension }));
  return { modelsDir, model };
}
