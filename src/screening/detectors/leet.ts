// Digits and symbols that stand in for letters ("h4t3", "$h!t"). The
// profanity lexicon and the learned detectors' de-leeted text view read the
// same table, so a spelling trick is undone the same way by both.
export const LEET: Readonly<Record<string, string>> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "8": "b",
  "9": "g",
  "@": "a",
  $: "s",
  "!": "i",
  "|": "l",
  "+": "t",
  "€": "e",
};
