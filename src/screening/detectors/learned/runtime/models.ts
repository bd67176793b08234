// The shipped model files, loaded once per process (synchronous, well under a
// second); a detector called before loadModels loads them itself. Models an
// operator configures (src/screening/models/) serve the same detectors in
// their place or beside them. What each detector reads:
// docs/learned-detectors.md.
import { readFileSync } from "node:fs";
import type { Level, Location } from "../../../vocabulary.js";
import { DEFAULT_MODELS_DIR, loadModelFiles, type LoadedModels, type RuleLevels } from "./model-store.js";

/** Version of the shipped model files (models/manifest.json), for dev_info.model_version. */
export const MODEL_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("manifest.json", DEFAULT_MODELS_DIR), "utf8")) as { version: string }).version;
  } catch {
    return "learned-missing";
  }
})();

let loaded: LoadedModels | undefined;

export interface LoadOptions {
  /** Directory holding manifest.json and the weight files (default: the repository's models/). */
  modelsDir?: URL;
}

/** Loads the built-in models (synchronous). Safe to call again: returns what is loaded. */
export function loadModels(options: LoadOptions = {}): LoadedModels {
  if (!loaded || options.modelsDir) loaded = loadModelFiles(options.modelsDir ?? DEFAULT_MODELS_DIR);
  return loaded;
}

export function models(): LoadedModels {
  return loaded ?? loadModels();
}

/** Levels for rule signatures missing from the manifest (never used with the shipped one). */
const FALLBACK_RULE_LEVEL: Level = "l4_less_likely";

/** The level the manifest gives a rule-based detector's signature. */
export function ruleLevel(table: RuleLevels, signature: string): Level {
  return table[signature] ?? FALLBACK_RULE_LEVEL;
}

/** Locations a policy may place prompt_attack at. */
export const PROMPT_ATTACK_LOCATIONS: readonly Location[] = ["user::content", "assistant::content", "tool::content", "tool_definition::content", "assistant::tool_call"];
