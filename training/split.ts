// Fixed split: a stable hash of each example's group decides train 70 /
// validation 15 / test 15. Groups keep near-duplicates and whole templates on
// one side, so the test split measures unseen templates.
import { stableHash } from "./prng.js";

export type Split = "train" | "validation" | "test";

export function splitOf(group: string): Split {
  const h = stableHash("parapet-split-v1:" + group) % 100;
  return h < 70 ? "train" : h < 85 ? "validation" : "test";
}

/** A coarse key for near-duplicates: the first words, lower-cased, without digits or punctuation. */
export function nearDuplicateKey(text: string, words = 8): string {
  return text
    .toLowerCase()
    .replace(/[^a-z\s]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, words)
    .join(" ");
}
