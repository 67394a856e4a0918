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
