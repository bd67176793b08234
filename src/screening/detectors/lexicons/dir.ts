/** Where the lexicon text files live, relative to the project root (see paths.ts). */
export const LEXICONS = "src/screening/detectors/lexicons";
