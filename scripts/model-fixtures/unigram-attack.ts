// unigram-attack: a prompt-attack text classifier shaped like Llama Prompt Guard 2 and the other
// XLM-R / mDeBERTa classifiers: a SentencePiece Unigram tokenizer (Precompiled normalizer,
// Metaspace, `<s> $A </s>`), labels SAFE / INJECTION, softmax. Attack words in English, German,
// Spanish, French and Japanese push INJECTION (test/fixtures/models/README.md lists them).
import type { JsonObject, ModelFolder, SpecialToken } from "./model-folder.js";
import { addedTokens, addedTokensDecoder, labelMaps, labelTable, templateProcessing } from "./model-folder.js";
import { precompiledCharsmap } from "./precompiled-charsmap.js";

const LABELS = ["SAFE", "INJECTION"] as const;

const BOS: SpecialToken = { id: 0, content: "<s>" };
const PAD: SpecialToken = { id: 1, content: "<pad>" };
const EOS: SpecialToken = { id: 2, content: "</s>" };
const UNK: SpecialToken = { id: 3, content: "<unk>" };

/** Words that push INJECTION, as whole pieces ("▁ignore") and inside CJK text ("無視"). */
export const ATTACK_WORDS = [
  "ignore",
  "Ignore",
  "disregard",
  "Disregard",
  "instructions",
  "override",
  "jailbreak",
  "bypass",
  "reveal",
  "pretend",
  "forget",
  "Forget",
  "ignoriere",
  "Ignoriere",
  "Anweisungen",
  "ignora",
  "Ignora",
  "instrucciones",
  "ignorez",
  "Ignorez",
  "無視",
  "指示",
] as const;

const WORDS = [
  ...["the", "The", "a", "an", "and", "or", "of", "to", "in", "on", "at", "for", "with", "from", "is", "are", "was", "be", "will", "not"],
  ...["it", "It", "this", "This", "that", "you", "You", "your", "I", "me", "my", "we", "all", "any", "new", "now", "do", "say"],
  ...["what", "What", "how", "How", "can", "Can", "please", "Please", "tell", "Tell", "about", "write", "Write", "translate", "Translate"],
  ...["weather", "today", "tomorrow", "story", "summary", "summarize", "Summarize", "email", "meeting", "book", "flight", "thanks", "Thanks"],
  ...["hello", "Hello", "good", "morning", "help", "want", "know", "time", "text", "document", "above", "previous", "user", "answer"],
  ...["question", "French", "English", "rules", "system", "prompt", "mode", "developer", "assistant", "café", "naïve"],
  ...["bitte", "Bitte", "die", "alle", "vorherigen", "und", "das", "Wetter", "heute", "für", "Grüße"],
  ...["por", "favor", "las", "los", "el", "anteriores", "qué", "tiempo", "hace", "hoy"],
  ...["les", "précédentes", "quel", "temps", "fait", "il"],
  ...ATTACK_WORDS.filter((w) => !/\p{Script=Han}/u.test(w)),
];
const CJK_WORDS = ["東京", "無視", "指示"];
const SUFFIXES = ["ing", "ed", "ly", "'s"];
const CHARACTERS = [
  ..."abcdefghijklmnopqrstuvwxyz",
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  ..."0123456789",
  ...".,!?'\":;-()/@#&+=",
  ..."éèêàçñüöäßï",
  ..."東京無視指示前のをにして行く日本私は人語天気今",
  "🙂",
  "👍",
];

// Unigram scores are log-probabilities: any whole-word piece outscores spelling the word out,
// so a listed word is always one piece and the ids in tests can be worked out by hand.
function pieces(): [string, number][] {
  const words = [...new Set(WORDS)].map((w, rank): [string, number] => [`▁${w}`, -(5 + rank / 100)]);
  const cjk = CJK_WORDS.flatMap((w): [string, number][] => [
    [`▁${w}`, -7],
    [w, -7.5],
  ]);
  const suffixes = SUFFIXES.map((s): [string, number] => [s, -8]);
  const characters = CHARACTERS.map((c, i): [string, number] => [c, -(10 + i / 1000)]);
  return [["▁", -3.5], ...words, ...cjk, ...suffixes, ...characters];
}

function vocabulary(): { tokens: string[]; scores: number[]; mask: SpecialToken } {
  const all: [string, number][] = [...[BOS, PAD, EOS, UNK].map((t): [string, number] => [t.content, 0]), ...pieces()];
  // XLM-R keeps <mask> as the last id.
  const mask: SpecialToken = { id: all.length, content: "<mask>", lstrip: true };
  all.push([mask.content, 0]);
  const tokens = all.map(([t]) => t);
  if (new Set(tokens).size !== tokens.length) throw new Error("unigram-attack: a piece is listed twice");
  return { tokens, scores: all.map(([, s]) => s), mask };
}

// SAFE gets 1 from every ordinary piece, INJECTION 8 from an attack word; special and unknown
// pieces add nothing to either. The logits are the mean over the text's pieces, <s> and </s> included.
const ATTACK = new Set<string>(ATTACK_WORDS);
function vector(token: string): number[] {
  if ([BOS, PAD, EOS, UNK].some((t) => t.content === token) || token === "<mask>") return [0, 0];
  return ATTACK.has(token.replace(/^▁/, "")) ? [0, 8] : [1, 0];
}

// What XLM-R's charsmap does besides NFKC, as a real charsmap: control characters removed,
// other whitespace (and "▁" itself) read as a space: the same characters transformers.js's
// Precompiled normalizer handles so. The NFKC step after it stands in for the charsmap's NFKC
// table (transformers.js applies NFKC there too), so both libraries tokenize the fixture alike.
function charsmap(): string {
  const codes = (from: number, to = from) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
  const removed = [...codes(0x01, 0x08), "\u000B", ...codes(0x0e, 0x1f), "\u007F", "\u008F", "\u009F"];
  const spaces = ["\t", "\n", "\f", "\r", "\u00A0", "\u1680", ...codes(0x2000, 0x200f), "\u2028", "\u2029", "\u202F", "\u205F", "\u2581", "\u3000", "\uFEFF", "\uFFFD"];
  return precompiledCharsmap(new Map([...removed.map((c): [string, string] => [c, ""]), ...spaces.map((c): [string, string] => [c, " "])]));
}

function tokenizerJson(tokens: string[], scores: number[], mask: SpecialToken): JsonObject {
  const metaspace = { replacement: "▁", prepend_scheme: "always", split: true };
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: addedTokens([BOS, PAD, EOS, UNK, mask]),
    normalizer: {
      type: "Sequence",
      normalizers: [{ type: "Precompiled", precompiled_charsmap: charsmap() }, { type: "NFKC" }, { type: "Replace", pattern: { Regex: " {2,}" }, content: " " }],
    },
    pre_tokenizer: { type: "Metaspace", ...metaspace },
    post_processor: templateProcessing(BOS, EOS, [EOS, EOS], 0),
    decoder: { type: "Metaspace", ...metaspace },
    model: { type: "Unigram", unk_id: UNK.id, vocab: tokens.map((t, i) => [t, scores[i]]), byte_fallback: false },
  };
}

export function unigramAttack(): ModelFolder {
  const { tokens, scores, mask } = vocabulary();
  const specials = [BOS, PAD, EOS, UNK, mask];
  return {
    name: "unigram-attack",
    config: {
      architectures: ["XLMRobertaForSequenceClassification"],
      model_type: "xlm-roberta",
      problem_type: "single_label_classification",
      ...labelMaps(LABELS),
      vocab_size: tokens.length,
      max_position_embeddings: 514,
      bos_token_id: BOS.id,
      pad_token_id: PAD.id,
      eos_token_id: EOS.id,
      torch_dtype: "float32",
    },
    tokenizer: tokenizerJson(tokens, scores, mask),
    tokenizerConfig: {
      added_tokens_decoder: addedTokensDecoder(specials),
      bos_token: BOS.content,
      clean_up_tokenization_spaces: true,
      cls_token: BOS.content,
      eos_token: EOS.content,
      mask_token: mask.content,
      model_max_length: 512,
      pad_token: PAD.content,
      sep_token: EOS.content,
      tokenizer_class: "XLMRobertaTokenizer",
      unk_token: UNK.content,
    },
    graph: {
      task: "text-classification",
      table: labelTable(tokens, LABELS.length, vector),
      labels: LABELS.length,
      description:
        "Parapet test fixture (not a trained model): logits[SAFE, INJECTION] = attention-masked mean over the tokens of a per-token vector: [1, 0] for an ordinary piece, [0, 8] for an attack word, [0, 0] for special and unknown pieces.",
    },
  };
}
