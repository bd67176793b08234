// Towns and cities of the world, in the languages and scripts people write them in ("Troia", "Pechino", "Москва",
// "杭州", "서울"): a word or phrase that is a known place is not taken for a person without a person's cue. The table
// is built from GeoNames by `training/lexicons/build-towns.ts` (training/lexicons/build-towns.ts, which says what is kept and why).
import { readFileSync } from "node:fs";
import { projectFile } from "../../../paths.js";
import { LEXICONS } from "../lexicons/dir.js";
import { townLookup } from "./town-table.js";

const bytes = readFileSync(projectFile(LEXICONS, "towns.bin"));

/** Whether a (lower-case) name, of one or several words, is a known town. */
export const isKnownTown = townLookup(
  // A file this large has a buffer of its own (offset 0); a copy only if it ever shares one unaligned.
  bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4) : new Uint32Array(Uint8Array.from(bytes).buffer),
);
