// The shape of a detector (after ESLint rules and Presidio recognizers): one
// module declares everything about a detector type — how it judges, where a
// policy may place it, which configuration it takes, how its matches are
// reported, logged, counted and sanitized, how the console lists it — next to
// its pure `detect` function. The registry is built from these definitions,
// and everything that tells detector types apart (the engine, policies, the
// stream, sanitize, the console's catalogue) reads them from there, so adding
// a detector touches its own file, the registry's list, the proto's
// `string.in` lists and the docs (docs/architecture.md#a-detector). Detectors
// never read policies, storage or requests: the engine owns orchestration,
// thresholds, modes, Unicode normalization and mapping spans back to the
// original text.
import type { Part } from "./parts.js";
import type { ConfigField, DetectorConfig, DetectorSettings, FamilyCounter, Level, Location, LogFamily } from "./vocabulary.js";

/** A matched region, half-open [start, end) in UTF-16 code units of the text the detector was given. */
export interface Span {
  start: number;
  end: number;
  /** Custom-guardrail labels or entity sub-types (e.g. "visa"), shown in the payload. */
  labels?: string[];
  /**
   * Confidence of this span alone, when a detector scores spans separately (the
   * Detection's level is the strongest of them); lets the engine drop the spans
   * that are under the policy threshold.
   */
  level?: Level;
}

export interface Detection {
  /** `no_level` when the detector found nothing; `l5_unlikely` for scored-but-below. */
  level: Level;
  spans: Span[];
  /** Why the detector did not judge the part when it declines to (reported in dev_info). */
  note?: string;
  /**
   * The configured model that produced this detection when it is not the
   * built-in one (a model folder's name, or `judge:<model>`), so the log
   * detail can say which model flagged what.
   */
  model?: string;
}

export const nothing: Detection = { level: "no_level", spans: [] };

/** What every detector may look at besides its own part: the whole conversation. */
export interface ScreeningContext {
  parts: Part[];
  /**
   * The system and developer messages' contents, in order: the application's
   * own instructions, which say what the agent is for. Context only: they are
   * not parts, so no detector screens them.
   */
  instructions?: readonly string[];
}

/** Screens one part's normalized text with the policy's settings for this detector. */
export type DetectFn = (text: string, part: Part, settings: DetectorSettings, context: ScreeningContext) => Detection;

/**
 * How a detector judges, which decides how a stream screens it
 * (docs/streaming.md#window) and which evaluation measures it.
 * - `exact`: rules, validators and lexicons; its spans are what it matched.
 * - `text_model`: a learned model that scores a region of text, and costs the
 *   most per character. A bring-your-own ONNX model that replaces a built-in
 *   head (docs/learned-detectors.md) leaves the kind as it is: it scores the
 *   same region for the same detector type, so the stream treats it alike.
 * - `tool_call_model`: a learned model, or the model manifest's rule tables,
 *   over one tool call or tool result.
 */
export type DetectorKind = "exact" | "text_model" | "tool_call_model";

/** A heading of the console's detector catalogue (and its highlight colour). */
export type ConsoleFamily = "Prompt attacks" | "Content moderation" | "Personal data" | "Links" | "Overrides" | "Agent tools";

/** How the console's policy editor lists a detector; scripts/generate-console-catalogue.ts copies it into the console. */
export interface ConsoleEntry {
  family: ConsoleFamily;
  /** The locations a new entry of this type starts with. */
  defaults: readonly Location[];
}

export interface DetectorDefinition {
  /** The detector type, as policies and results name it. */
  type: string;
  kind: DetectorKind;
  /** Locations a policy may place it at. */
  locations: readonly Location[];
  /**
   * Locations where it sees the traffic it is built for: the default policy
   * runs it at each, and policy health warns about the others.
   */
  meaningful: readonly Location[];
  /** Configuration fields that must be given (non-empty). */
  requires: readonly ConfigField[];
  /** Configuration fields that may be given; any other is "not applicable". */
  accepts: readonly ConfigField[];
  /** Its matched spans are returned in the `/v2/guard` payload. */
  payload: boolean;
  /** The logs filter value that a request it flagged matches; null for a detector that never flags. */
  logFamily: LogFamily | null;
  /** The analytics counter that a request it flagged increments, if any. */
  counter?: FamilyCounter;
  /**
   * `defense`: it judges traffic (an attack, harm, personal data, a risky call).
   * `label`: it describes traffic (what a tool call does): it flags only where a
   * policy places it, and the default policy leaves it out
   * (docs/decisions.md#default-policy).
   */
  role: "defense" | "label";
  /**
   * The type of the placeholders a sanitization replaces its spans with
   * (`[EMAIL_1]`; docs/sanitize.md#placeholders). Without one, a pii/* type's
   * name after `pii/`, in capitals.
   */
  placeholder?: string;
  console: ConsoleEntry;
  detect: DetectFn;
}

/** Screened message content: every location but tool definitions. */
export const contentLocations: readonly Location[] = ["user::content", "assistant::content", "assistant::tool_call", "tool::content"];

type Defaults = "locations" | "requires" | "accepts" | "payload" | "role";

/**
 * A definition with the common defaults: placeable at every content location,
 * no configuration, no payload spans, a defense. `accepts` defaults to `requires`.
 */
export function defineDetector(d: Omit<DetectorDefinition, Defaults> & Partial<Pick<DetectorDefinition, Defaults>>): DetectorDefinition {
  const requires = d.requires ?? [];
  return { ...d, locations: d.locations ?? contentLocations, requires, accepts: d.accepts ?? requires, payload: d.payload ?? false, role: d.role ?? "defense" };
}

/** A detector that reads only the part's text and its settings (most exact detectors). */
export function textOnly(detect: (text: string, config: DetectorConfig) => Detection): DetectFn {
  return (text, _part, settings) => detect(text, settings);
}
