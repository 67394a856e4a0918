// The labelled pairs of a dev_pairs.tsv (the development set kept outside the repository, see
// docs/dedup.md): tab-separated, with a header naming at least the set, text_a, text_b and label columns.
import { readFileSync } from 'node:fs';

export interface Pair {
  set: string;
  a: string;
  b: string;
  label: 0 | 1;
}

export function readPairs(file: string): Pair[] {
  const [header, ...lines] = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const columns = header.split('\t');
  const at = (name: string) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`${file}: no "${name}" column`);
    return index;
  };
  const [set, a, b, label] = [at('set'), at('text_a'), at('text_b'), at('label')];
  return lines.map((line) => {
    const fields = line.split('\t');
    return { set: fields[set], a: fields[a], b: fields[b], label: fields[label] === '1' ? 1 : 0 };
  });
}

/**
 * A fixed sample: of each set (in name order), in file order, every (size / perSet)th pair, at
 * most `perSet` of them. The same file gives the same sample.
 */
export function samplePerSet(pairs: readonly Pair[], perSet: number): Pair[] {
  const sets = [...new Set(pairs.map((p) => p.set))].sort();
  return sets.flatMap((set) => {
    const list = pairs.filter((p) => p.set === set);
    const step = Math.max(1, Math.floor(list.length / perSet));
    return list.filter((_, i) => i % step === 0).slice(0, perSet);
  });
}
