// The normalization override lists are compared under (DESIGN.md 5):
// NFKC, case-folded, whitespace collapsed to single spaces and trimmed.
export function normalizeOverride(s: string): string {
  return s
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, "")
    .normalize("NFKC")
    .toLocaleLowerCase("und")
    .replace(/\s+/gu, " ")
    .trim();
}
