// What the model runtime suites share: the fixture folders, settings as the service reads them
// from the environment, and the detectors run on parts the pre-pass scored.
import path from "node:path";
import { modelSettingsOf } from "../../../src/config.js";
import type { ModelSettings } from "../../../src/screening/models/settings.js";
import { FIXTURES_DIR, type FixtureName } from "../../../scripts/model-fixtures/fixtures.js";

export const fixture = (name: FixtureName) => path.join(FIXTURES_DIR, name);

/** The three fixtures, one per slot, as environment settings. */
export const ALL_MODELS = {
  PARAPET_PROMPT_ATTACK_MODEL: fixture("unigram-attack"),
  PARAPET_MODERATION_MODEL: fixture("bpe-moderation"),
  PARAPET_PII_MODEL: fixture("wordpiece-ner"),
};

export function settings(env: Record<string, string>): ModelSettings {
  const s = modelSettingsOf(env);
  if (!s.slots.length) throw new Error("no model configured");
  return s;
}
