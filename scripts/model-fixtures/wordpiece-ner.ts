// wordpiece-ner: a token classifier shaped like the BERT NER models (bert-base-cased's tokenizer:
// BertNormalizer without lowercasing or accent stripping, BertPreTokenizer, WordPiece with "##",
// `[CLS] $A [SEP]`), BIO labels for people, places and phone numbers. Names, places and digits
// get their label per token (test/fixtures/models/README.md lists them).
import type { JsonObject, ModelFolder, SpecialToken } from "./model-folder.js";
import { addedTokens, addedTokensDecoder, labelMaps, labelTable, templateProcessing } from "./model-folder.js";

const LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-PHONE", "I-PHONE"] as const;
type Label = (typeof LABELS)[number];

const PAD: SpecialToken = { id: 0, content: "[PAD]" };
const UNK: SpecialToken = { id: 1, content: "[UNK]" };
const CLS: SpecialToken = { id: 2, content: "[CLS]" };
const SEP: SpecialToken = { id: 3, content: "[SEP]" };
const MASK: SpecialToken = { id: 4, content: "[MASK]" };
const SPECIALS = [PAD, UNK, CLS, SEP, MASK];

/**
 * Tokens with an entity label. A name the vocabulary splits carries B- on its first piece and
 * I- on the rest ("Tanaka" = "Tan" "##aka", "María" = "Mar" "##ía"); BertNormalizer puts each
 * CJK ideograph in a token of its own ("田中" = "田" "中", "東京" = "東" "京").
 */
export const ENTITY_TOKENS: Partial<Record<Label, readonly string[]>> = {
  "B-PER": ["Alice", "Bob", "Carlos", "José", "Zoe", "Tan", "Mar", "田"],
  "I-PER": ["Smith", "##aka", "##ía", "中"],
  "B-LOC": ["Paris", "Tokyo", "London", "Berlin", "Madrid", "Zürich", "東"],
  "I-LOC": ["京"],
  // A digit starting a word is B-PHONE, a digit continuing one I-PHONE: "5550100" is one phone
  // entity, "555-0100" two (BertPreTokenizer splits at the hyphen, which stays O).
  "B-PHONE": [..."0123456789"],
  "I-PHONE": [..."0123456789"].map((d) => `##${d}`),
};

const WORDS = [
  ...["the", "The", "a", "is", "my", "My", "name", "lives", "in", "and", "from", "call", "Call", "me", "at", "to", "will", "visit"],
  ...["meet", "live", "with", "on", "number", "phone", "her", "his", "friend", "works", "went", "next", "week", "I", "She", "He", "Please"],
  ...["email", "address", "Hello", "Thanks", "today", "office", "café", "naïve", "ist", "in", "und", "wohnt", "vive", "en"],
];
const JAPANESE = [..."さんにでいますはの住"];
const PUNCTUATION = [...`!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`];
const LETTERS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"];
// Pieces inside words: a combining acute accent and diaeresis (text written decomposed, NFD),
// and accented letters; the combining marks are O, so "Zoe" + "##\u0308" keeps its B-PER on "Zoe".
const INNER = ["\u0301", "\u0308", "é", "í", "ü", "ñ", ..."さんにでいますはの"];

function vocabulary(): string[] {
  const entities = Object.values(ENTITY_TOKENS).flat();
  const tokens = [
    ...SPECIALS.map((t) => t.content),
    ...PUNCTUATION,
    ...LETTERS,
    ...LETTERS.map((l) => `##${l}`),
    ...INNER.map((p) => `##${p}`),
    ...JAPANESE,
    "🙂",
    ...WORDS,
    ...entities,
  ];
  return [...new Set(tokens)];
}

function labelVectors(): (token: string) => number[] {
  const byToken = new Map<string, number>();
  for (const [label, tokens] of Object.entries(ENTITY_TOKENS)) for (const t of tokens) byToken.set(t, LABELS.indexOf(label as Label));
  // O scores 5 on every token without a label (special tokens too); a labelled token scores 6
  // on its label and 0 elsewhere.
  return (token) => {
    const label = byToken.get(token) ?? 0;
    return LABELS.map((_, i) => (i === label ? (label === 0 ? 5 : 6) : 0));
  };
}

function tokenizerJson(tokens: string[]): JsonObject {
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: addedTokens(SPECIALS),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: templateProcessing(CLS, SEP, [SEP], 1),
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: UNK.content,
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(tokens.map((t, i) => [t, i])),
    },
  };
}

export function wordpieceNer(): ModelFolder {
  const tokens = vocabulary();
  return {
    name: "wordpiece-ner",
    config: {
      architectures: ["BertForTokenClassification"],
      model_type: "bert",
      ...labelMaps(LABELS),
      vocab_size: tokens.length,
      max_position_embeddings: 512,
      type_vocab_size: 2,
      pad_token_id: PAD.id,
      torch_dtype: "float32",
    },
    tokenizer: tokenizerJson(tokens),
    tokenizerConfig: {
      added_tokens_decoder: addedTokensDecoder(SPECIALS),
      clean_up_tokenization_spaces: true,
      cls_token: CLS.content,
      do_basic_tokenize: true,
      do_lower_case: false,
      mask_token: MASK.content,
      model_max_length: 512,
      never_split: null,
      pad_token: PAD.content,
      sep_token: SEP.content,
      strip_accents: null,
      tokenize_chinese_chars: true,
      tokenizer_class: "BertTokenizer",
      unk_token: UNK.content,
    },
    graph: {
      task: "token-classification",
      table: labelTable(tokens, LABELS.length, labelVectors()),
      labels: LABELS.length,
      description:
        "Parapet test fixture (not a trained model): logits[token] over O, B-PER, I-PER, B-LOC, I-LOC, B-PHONE, I-PHONE = that token's vector (6 on its entity label for a name, place or digit token, else 5 on O), zero where attention_mask is 0.",
    },
  };
}
