// SentencePiece's precompiled character map, the `precompiled_charsmap` of a Precompiled
// normalizer: a little-endian u32 trie size, a darts-clone double-array trie over the UTF-8 bytes
// of the characters to replace, then the replacements, each ending in a NUL byte. The Rust
// tokenizers library replaces each character (or grapheme) the trie matches by the string the
// matched leaf's value points at; transformers.js ignores the map and applies a fixed equivalent.
//
// A double-array unit (u32): bits 0-7 the label (the byte leading to it), bit 8 "has a leaf",
// bits 10-30 the offset to its children (child for byte c at `position ^ offset ^ c`, its leaf
// value at `position ^ offset`); a leaf unit has bit 31 set and the value in bits 0-30.

interface TrieNode {
  children: Map<number, TrieNode>;
  value?: number;
}

export function precompiledCharsmap(replacements: ReadonlyMap<string, string>): string {
  const root: TrieNode = { children: new Map() };
  const normalized: Buffer[] = [];
  let blobSize = 0;
  for (const [from, to] of replacements) {
    let node = root;
    for (const byte of Buffer.from(from, "utf8")) {
      if (!node.children.has(byte)) node.children.set(byte, { children: new Map() });
      node = node.children.get(byte)!;
    }
    const bytes = Buffer.from(`${to}\0`, "utf8");
    node.value = blobSize;
    normalized.push(bytes);
    blobSize += bytes.length;
  }
  const units = doubleArray(root);
  const trie = Buffer.alloc(units.length * 4);
  units.forEach((u, i) => trie.writeUInt32LE(u >>> 0, i * 4));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(trie.length, 0);
  return Buffer.concat([size, trie, ...normalized]).toString("base64");
}

function doubleArray(root: TrieNode): number[] {
  const units: number[] = [0];
  const used = new Set<number>([0]);
  // Two nodes sharing a base (position ^ offset) would read each other's children.
  const bases = new Set<number>();
  const place = (node: TrieNode, position: number) => {
    const labels = [...(node.value === undefined ? [] : [0]), ...[...node.children.keys()].sort((a, b) => a - b)];
    if (labels.length === 0) return;
    let offset = 1;
    while (bases.has(position ^ offset) || labels.some((c) => used.has(position ^ offset ^ c))) offset++;
    if (offset >= 1 << 21) throw new Error("precompiled charsmap: offset out of range");
    const base = position ^ offset;
    bases.add(base);
    for (const c of labels) used.add(base ^ c);
    units[position] = (units[position] ?? 0) | (offset << 10) | (node.value === undefined ? 0 : 1 << 8);
    if (node.value !== undefined) units[base] = (1 << 31) | node.value;
    for (const [c, child] of [...node.children].sort(([a], [b]) => a - b)) {
      units[base ^ c] = c;
      place(child, base ^ c);
    }
  };
  place(root, 0);
  // Every byte read from a reachable block must land inside the array: whole blocks of 256.
  const length = Math.ceil(units.length / 256) * 256;
  return Array.from({ length }, (_, i) => units[i] ?? 0);
}
