// bpe-moderation: a multi-label moderation classifier shaped like the RoBERTa-family toxicity
// classifiers: a byte-level BPE tokenizer (ByteLevel pre-tokenizer and decoder, RobertaProcessing
// `<s> $A </s>`), labels toxic / sexual / violence / self_harm, sigmoid per label. Words for each
// label, in English, Spanish, German and Japanese and one emoji, push that label
// (test/fixtures/models/README.md lists them).
import type { JsonObject, ModelFolder, SpecialToken } from "./model-folder.js";
import { addedTokens, addedTokensDecoder, labelMaps, labelTable } from "./model-folder.js";

const LABELS = ["toxic", "sexual", "violence", "self_harm"] as const;

const BOS: SpecialToken = { id: 0, content: "<s>" };
const PAD: SpecialToken = { id: 1, content: "<pad>" };
const EOS: SpecialToken = { id: 2, content: "</s>" };
const UNK: SpecialToken = { id: 3, content: "<unk>" };

/** The words that push each label (as their own word after a space, or the first word for the capitalised ones). */
export const LABEL_WORDS: Record<(typeof LABELS)[number], readonly string[]> = {
  toxic: ["idiot", "stupid", "moron", "hate", "odio"],
  sexual: ["sex", "sexy", "nude", "porn"],
  violence: ["kill", "Kill", "hurt", "stab", "shoot", "bomb", "matar", "töten", "殺す", "🔪"],
  self_harm: ["suicide", "overdose"],
};

const WORDS = [
  ...["I", "you", "will", "want", "to", "the", "a", "and", "is", "was", "it", "this", "that", "for", "with", "my", "me", "we", "they", "are"],
  ...["not", "please", "tell", "how", "what", "about", "weather", "today", "good", "great", "day", "movie", "book", "love", "people"],
  ...["friends", "game", "your", "he", "she", "him", "her", "them", "all", "really", "so", "make", "café", "mañana"],
];
/** Capitalised forms a text may start with (no space before them, so no Ġ). */
const FIRST_WORDS = ["You", "Kill", "Please", "The", "This", "How", "What"];
/** Scripts written without spaces: a piece of their own, no Ġ. */
const UNSPACED = ["東京", "殺す", "🔪"];

// GPT-2's byte-to-character table, which every byte-level BPE vocabulary is written in: printable
// Latin-1 bytes stand for themselves, the others (space, controls) are shifted to U+0100 on.
function byteCharacters(): string[] {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let shifted = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : 256 + shifted++));
}

const BYTES = byteCharacters();
const byteLevel = (text: string) => [...Buffer.from(text, "utf8")].map((b) => BYTES[b]).join("");

// Each word is merged from its first two byte characters onwards, one character at a time, so a
// merge's left side is always a word's beginning: inside a word nothing else merges, and a word
// not listed stays split into the pieces its listed prefix allows, then single bytes.
function mergesAndTokens(): { merges: [string, string][]; merged: string[] } {
  const words = [
    ...WORDS.map((w) => ` ${w}`),
    ...Object.values(LABEL_WORDS)
      .flat()
      .filter((w) => !UNSPACED.includes(w) && !FIRST_WORDS.includes(w))
      .map((w) => ` ${w}`),
    ...FIRST_WORDS,
    ...UNSPACED,
  ];
  const merges: [string, string][] = [];
  const merged: string[] = [];
  const seen = new Set<string>();
  for (const word of words.map(byteLevel)) {
    const chars = [...word];
    for (let end = 2; end <= chars.length; end++) {
      const token = chars.slice(0, end).join("");
      if (seen.has(token)) continue;
      seen.add(token);
      merges.push([chars.slice(0, end - 1).join(""), chars[end - 1]]);
      merged.push(token);
    }
  }
  return { merges, merged };
}

function vocabulary(): { tokens: string[]; merges: [string, string][]; mask: SpecialToken } {
  const { merges, merged } = mergesAndTokens();
  const tokens = [...[BOS, PAD, EOS, UNK].map((t) => t.content), ...BYTES, ...merged];
  // RoBERTa keeps <mask> as the last id.
  const mask: SpecialToken = { id: tokens.length, content: "<mask>", lstrip: true };
  tokens.push(mask.content);
  if (new Set(tokens).size !== tokens.length) throw new Error("bpe-moderation: a token is listed twice");
  return { tokens, merges, mask };
}

// Every ordinary token gives -2 to each label; a label word gives 12 to its label (and -2 to
// the others); special tokens give 0. The logits are the mean over the text's tokens.
function labelVectors(): (token: string) => number[] {
  const byToken = new Map<string, number>();
  LABELS.forEach((label, i) => {
    for (const word of LABEL_WORDS[label]) byToken.set(byteLevel(UNSPACED.includes(word) || FIRST_WORDS.includes(word) ? word : ` ${word}`), i);
  });
  const specials = new Set([BOS, PAD, EOS, UNK].map((t) => t.content).concat("<mask>"));
  return (token) => {
    if (specials.has(token)) return [0, 0, 0, 0];
    const label = byToken.get(token);
    return LABELS.map((_, i) => (i === label ? 12 : -2));
  };
}

function tokenizerJson(tokens: string[], merges: [string, string][], mask: SpecialToken): JsonObject {
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: addedTokens([BOS, PAD, EOS, UNK, mask]),
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: "RobertaProcessing", sep: [EOS.content, EOS.id], cls: [BOS.content, BOS.id], trim_offsets: true, add_prefix_space: false },
    decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: "BPE",
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: "",
      end_of_word_suffix: "",
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab: Object.fromEntries(tokens.map((t, i) => [t, i])),
      merges,
    },
  };
}

export function bpeModeration(): ModelFolder {
  const { tokens, merges, mask } = vocabulary();
  const specials = [BOS, PAD, EOS, UNK, mask];
  return {
    name: "bpe-moderation",
    config: {
      architectures: ["RobertaForSequenceClassification"],
      model_type: "roberta",
      problem_type: "multi_label_classification",
      ...labelMaps(LABELS),
      vocab_size: tokens.length,
      max_position_embeddings: 514,
      bos_token_id: BOS.id,
      pad_token_id: PAD.id,
      eos_token_id: EOS.id,
      torch_dtype: "float32",
    },
    tokenizer: tokenizerJson(tokens, merges, mask),
    tokenizerConfig: {
      add_prefix_space: false,
      added_tokens_decoder: addedTokensDecoder(specials),
      bos_token: BOS.content,
      clean_up_tokenization_spaces: false,
      cls_token: BOS.content,
      eos_token: EOS.content,
      errors: "replace",
      mask_token: mask.content,
      model_max_length: 512,
      pad_token: PAD.content,
      sep_token: EOS.content,
      tokenizer_class: "RobertaTokenizer",
      trim_offsets: true,
      unk_token: UNK.content,
    },
    graph: {
      task: "text-classification",
      table: labelTable(tokens, LABELS.length, labelVectors()),
      labels: LABELS.length,
      description:
        "Parapet test fixture (not a trained model): logits[toxic, sexual, violence, self_harm] = attention-masked mean over the tokens of a per-token vector: 12 for a label word's own label and -2 for the others, -2 everywhere for an ordinary token, 0 for special tokens. Read with a sigmoid per label.",
    },
  };
}
