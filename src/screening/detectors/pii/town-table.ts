// The town names' file format (lexicons/towns.bin), shared by the generator
// (training/lexicons/build-towns.ts) and the detectors: an open-addressing hash table
// of 64-bit name hashes. Every screening thread reads the 4 MB file as it is (~5 ms),
// where a Set of the 265k names cost each thread ~0.4 s and ~30 MB of heap.
// Two 32-bit FNV-1a hashes with different offsets make a false "known town"
// for a word that is not one about one in 2^64 / 265k.

const MAGIC = 0x4e575450; // "PTWN"
const HEADER_WORDS = 2; // magic, slot count

/** Two 32-bit FNV-1a hashes of the UTF-16 units; never both 0 (0, 0 marks an empty slot). */
function hashes(name: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, (b | 1) >>> 0];
}

/** The table file's words for these (lower-case) names: at most three slots in four filled. */
export function buildTownTable(names: Iterable<string>): Uint32Array {
  const list = [...new Set(names)].sort();
  let slots = 1;
  while (slots * 3 < list.length * 4) slots *= 2;
  const words = new Uint32Array(HEADER_WORDS + slots * 2);
  words[0] = MAGIC;
  words[1] = slots;
  for (const name of list) {
    const [a, b] = hashes(name);
    let i = a & (slots - 1);
    while (words[HEADER_WORDS + i * 2 + 1] !== 0) i = (i + 1) & (slots - 1);
    words[HEADER_WORDS + i * 2] = a;
    words[HEADER_WORDS + i * 2 + 1] = b;
  }
  return words;
}

/** A lookup over a table file's words; throws when they are not one. */
export function townLookup(words: Uint32Array): (name: string) => boolean {
  const slots = words[1];
  if (words[0] !== MAGIC || slots === 0 || (slots & (slots - 1)) !== 0 || words.length !== HEADER_WORDS + slots * 2) {
    throw new Error("not a town table (rebuild it with training/lexicons/build-towns.ts)");
  }
  return (name) => {
    const [a, b] = hashes(name);
    for (let i = a & (slots - 1); ; i = (i + 1) & (slots - 1)) {
      const sb = words[HEADER_WORDS + i * 2 + 1];
      if (sb === 0) return false;
      if (sb === b && words[HEADER_WORDS + i * 2] === a) return true;
    }
  };
}
