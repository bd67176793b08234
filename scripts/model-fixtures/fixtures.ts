// The fixture models under test/fixtures/models/ (README.md there says what each computes).
import path from "node:path";

import { bpeModeration } from "./bpe-moderation.js";
import type { FixtureName, ModelFolder } from "./model-folder.js";
import { unigramAttack } from "./unigram-attack.js";
import { wordpieceNer } from "./wordpiece-ner.js";

export type { FixtureName } from "./model-folder.js";

export const FIXTURES_DIR = path.resolve(import.meta.dirname, "../../test/fixtures/models");

const BUILDERS: Record<FixtureName, () => ModelFolder> = {
  "unigram-attack": unigramAttack,
  "bpe-moderation": bpeModeration,
  "wordpiece-ner": wordpieceNer,
};

export const FIXTURE_NAMES = Object.keys(BUILDERS) as FixtureName[];

export function buildFixture(name: FixtureName): ModelFolder {
  return BUILDERS[name]();
}
