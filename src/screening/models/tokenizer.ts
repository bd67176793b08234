// A model folder's tokenizer (tokenizer.json of any model type: WordPiece,
// Unigram/SentencePiece, BPE, with their normalizers, pre-tokenizers and
// post-processors), run by transformers.js from the parsed files: nothing is
// fetched, and the library is imported only when a model is configured. The
// ids are the library's; their offsets are aligned here (offsets.ts).
//
// Pinned @huggingface/transformers 4.3.1: `PreTrainedTokenizer._tokenizer`
// (its @huggingface/tokenizers Tokenizer, typed in the package's declarations)
// is read once, for its normalizer, which the library exposes no other way and
// the offsets need. Re-check it when the pin moves.
import type { PreTrainedTokenizer } from "@huggingface/transformers";
import { alignTokens, wordStarts, type TokenSurfaces } from "./offsets.js";

/** The parts of tokenizer.json the runtime reads itself; the library reads the whole file. */
export interface TokenizerJson {
  model?: { type?: string; continuing_subword_prefix?: string | null; end_of_word_suffix?: string | null; byte_fallback?: boolean };
  normalizer?: unknown;
  pre_tokenizer?: unknown;
  decoder?: unknown;
  added_tokens?: { id: number; content: string; special?: boolean }[];
}

/** The tokenizer model types transformers.js implements. */
export const TOKENIZER_TYPES = ["WordPiece", "Unigram", "BPE"] as const;

export interface Tokenized {
  ids: Int32Array;
  /** UTF-16 offsets of each token in the text. */
  starts: Int32Array;
  ends: Int32Array;
  /** 1 where a token begins a word (for word-level aggregation). */
  wordStarts: Uint8Array;
}

/** SentencePiece's word marker, which Metaspace pre-tokenizers write for a space. */
const MARKER = /\u2581/g;
const ASCII_SPACE = /[\t\n\v\f\r ]/g;
const ANY_SPACE = /\s/gu;
const FALLBACK_BYTE = /^<0x([0-9A-Fa-f]{2})>$/;
const utf8 = new TextEncoder();

/** GPT-2's byte-to-character table, inverted: the bytes a byte-level BPE token stands for. */
function byteDecoder(): Map<string, number> {
  const direct: number[] = [];
  for (let b = 33; b <= 126; b++) direct.push(b);
  for (let b = 161; b <= 172; b++) direct.push(b);
  for (let b = 174; b <= 255; b++) direct.push(b);
  const out = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    if (direct.includes(b)) out.set(String.fromCodePoint(b), b);
    else out.set(String.fromCodePoint(256 + extra++), b);
  }
  return out;
}

/** Whether a component of tokenizer.json (or one nested in a Sequence) has this type. */
function hasType(component: unknown, type: string): boolean {
  if (!component || typeof component !== "object") return false;
  const c = component as Record<string, unknown>;
  if (c.type === type) return true;
  for (const key of ["pretokenizers", "normalizers", "decoders", "processors"]) {
    const list = c[key];
    if (Array.isArray(list) && list.some((x) => hasType(x, type))) return true;
  }
  return false;
}

/** The one private member read (see the header): the tokenizer's normalizer, text to text, or none. */
interface Normalizing {
  _tokenizer: { normalizer: ((text: string) => string) | null };
}

/** Clusters seen are remembered up to this many, then forgotten at once (text can hold any number of distinct ones). */
const MAX_CLUSTERS = 65_536;

function surfacesOf(tok: PreTrainedTokenizer, json: TokenizerJson): TokenSurfaces {
  const byteLevel = hasType(json.pre_tokenizer, "ByteLevel") || hasType(json.decoder, "ByteLevel");
  const prefix = json.model?.continuing_subword_prefix ?? (json.model?.type === "WordPiece" ? "##" : "");
  const suffix = json.model?.end_of_word_suffix ?? "";
  const byteFallback = json.model?.byte_fallback === true;
  const vocab: string[] = [];
  for (const [token, id] of tok.get_vocab()) vocab[id] = token;
  const special = new Set(tok.all_special_ids);
  const unknown = tok.unk_token_id;
  const decoder = byteLevel ? byteDecoder() : undefined;
  const spaces = byteLevel ? ASCII_SPACE : ANY_SPACE;
  const normalize = (tok as unknown as Normalizing)._tokenizer.normalizer;
  const bytes: (Uint8Array | null | undefined)[] = [];
  const clusters = new Map<string, Uint8Array>();

  const tokenBytes = (id: number): Uint8Array | null => {
    const t = vocab[id];
    if (t === undefined || special.has(id) || id === unknown) return null;
    const fallback = byteFallback ? FALLBACK_BYTE.exec(t) : null;
    if (fallback) {
      const b = parseInt(fallback[1], 16);
      return b === 0x20 || (b >= 0x09 && b <= 0x0d) ? new Uint8Array(0) : Uint8Array.of(b);
    }
    if (decoder) {
      const out: number[] = [];
      for (const ch of t) {
        const b = decoder.get(ch);
        if (b === undefined) out.push(...utf8.encode(ch));
        else if (b !== 0x20 && !(b >= 0x09 && b <= 0x0d)) out.push(b);
      }
      return Uint8Array.from(out);
    }
    let s = t;
    if (prefix && s.startsWith(prefix) && s.length > prefix.length) s = s.slice(prefix.length);
    if (suffix && s.endsWith(suffix)) s = s.slice(0, -suffix.length);
    return utf8.encode(s.replace(MARKER, "").replace(spaces, ""));
  };

  return {
    bytesOf(id) {
      let b = bytes[id];
      if (b === undefined) bytes[id] = b = tokenBytes(id);
      return b;
    },
    clusterBytes(cluster) {
      let b = clusters.get(cluster);
      if (b) return b;
      let s = normalize ? normalize(cluster) : cluster;
      s = s.replace(spaces, "");
      if (!byteLevel) s = s.replace(MARKER, "");
      b = utf8.encode(s);
      if (clusters.size >= MAX_CLUSTERS) clusters.clear();
      clusters.set(cluster, b);
      return b;
    },
  };
}

type Transformers = typeof import("@huggingface/transformers");

let library: Promise<Transformers> | undefined;

/** transformers.js, imported on first use and told never to fetch (docs/learned-detectors.md#model-folders). */
function transformers(): Promise<Transformers> {
  library ??= import("@huggingface/transformers").then((t) => {
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    return t;
  });
  return library;
}

export class TextTokenizer {
  private constructor(
    private readonly tok: PreTrainedTokenizer,
    private readonly surfaces: TokenSurfaces,
    /** Special tokens the post-processor puts before and after a text's tokens. */
    readonly prefix: readonly number[],
    readonly suffix: readonly number[],
    readonly padId: number,
    /** Whether a token id marks itself as continuing a word (WordPiece's "##"); undefined when the tokenizer does not mark them. */
    private readonly continues: ((id: number) => boolean) | undefined,
  ) {}

  /**
   * A tokenizer from tokenizer.json and tokenizer_config.json as parsed from
   * the folder; the library picks its class from `tokenizer_class` as its
   * AutoTokenizer does. Throws one line on a tokenizer it cannot run.
   */
  static async load(json: TokenizerJson, config: Record<string, unknown>): Promise<TextTokenizer> {
    const t = await transformers();
    const name = typeof config.tokenizer_class === "string" ? config.tokenizer_class.replace(/Fast$/, "") : "";
    const named = (t as Record<string, unknown>)[name];
    const Class = typeof named === "function" && named.prototype instanceof t.PreTrainedTokenizer ? (named as typeof t.PreTrainedTokenizer) : t.PreTrainedTokenizer;
    let tok: PreTrainedTokenizer;
    try {
      // The library wants every component named, null when absent, as the Rust library saves them.
      tok = new Class({ normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [], ...json }, config);
    } catch (err) {
      throw new Error(`the tokenizer cannot be built: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`);
    }
    const bare = tok.encode("a b", { add_special_tokens: false });
    const full = tok.encode("a b", { add_special_tokens: true });
    const at = indexOfRun(full, bare);
    if (bare.length === 0 || at < 0) throw new Error("its post-processor does not wrap a text's tokens in fixed special tokens, which windows need");
    const prefix = full.slice(0, at);
    const suffix = full.slice(at + bare.length);
    const wordPrefix = json.model?.continuing_subword_prefix ?? (json.model?.type === "WordPiece" ? "##" : null);
    let continues: ((id: number) => boolean) | undefined;
    if (wordPrefix) {
      const vocab: string[] = [];
      for (const [token, id] of tok.get_vocab()) vocab[id] = token;
      continues = (id) => vocab[id]?.startsWith(wordPrefix) === true && vocab[id].length > wordPrefix.length;
    }
    const pad = tok.pad_token_id ?? tok.unk_token_id ?? 0;
    return new TextTokenizer(tok, surfacesOf(tok, json), prefix, suffix, pad, continues);
  }

  /**
   * The text's tokens without special tokens, with where each came from. A
   * long text goes to the library in pieces cut before a run of whitespace (as
   * the pre-tokenizers split words there, the ids are those of the whole text):
   * the library spreads a whole text's tokens into one call's arguments, which
   * overflows the stack on a few hundred kilobytes.
   */
  encode(text: string): Tokenized {
    if (text.length <= PIECE) return this.encodePiece(text);
    const pieces: Tokenized[] = [];
    const at: number[] = [];
    for (let a = 0; a < text.length; ) {
      const b = cutOf(text, a);
      pieces.push(this.encodePiece(text.slice(a, b)));
      at.push(a);
      a = b;
    }
    const n = pieces.reduce((k, p) => k + p.ids.length, 0);
    const out: Tokenized = { ids: new Int32Array(n), starts: new Int32Array(n), ends: new Int32Array(n), wordStarts: new Uint8Array(n) };
    let k = 0;
    pieces.forEach((p, i) => {
      out.ids.set(p.ids, k);
      out.wordStarts.set(p.wordStarts, k);
      for (let j = 0; j < p.ids.length; j++) {
        out.starts[k + j] = p.starts[j] + at[i];
        out.ends[k + j] = p.ends[j] + at[i];
      }
      k += p.ids.length;
    });
    return out;
  }

  private encodePiece(text: string): Tokenized {
    const ids = Int32Array.from(this.tok.encode(text, { add_special_tokens: false }));
    const offsets = alignTokens(text, ids, this.surfaces);
    const continues = this.continues;
    const words = wordStarts(text, offsets, continues && ((i) => continues(ids[i])));
    return { ids, starts: offsets.starts, ends: offsets.ends, wordStarts: words };
  }
}

/** Characters of a text the library tokenizes at once. */
const PIECE = 4096;
const SPACE = /\s/;
const MARK = /\p{M}/u;

/**
 * Where the piece of `text` from `a` ends: before the last run of whitespace
 * in its second half, or, in a text without any (CJK), at a character
 * boundary that leaves combining marks with their letter.
 */
function cutOf(text: string, a: number): number {
  if (text.length - a <= PIECE) return text.length;
  const limit = a + PIECE;
  for (let i = limit; i > a + PIECE / 2; i--) if (SPACE.test(text[i]) && !SPACE.test(text[i - 1])) return i;
  let i = limit;
  const inside = (k: number) => {
    const c = text.charCodeAt(k);
    return (c >= 0xdc00 && c <= 0xdfff) || MARK.test(String.fromCodePoint(text.codePointAt(k)!));
  };
  while (i > a + 1 && inside(i)) i--;
  return i;
}

function indexOfRun(haystack: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
