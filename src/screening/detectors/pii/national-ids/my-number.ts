// The check digit of Japan's Individual Number (マイナンバー, 個人番号): twelve
// digits, the last computed from the first eleven with the weights of the
// Ministry of Internal Affairs' ordinance (総務省令第85号, 2014). No checksum
// library on the npm registry covers it (stdnum's `jp` module is the
// Corporate Number), so it is written here and tested against hand-computed
// numbers (test/screening/detectors/national-ids.test.ts).

/** True when `digits` (twelve ASCII digits) carries a valid Individual Number check digit. */
export function validMyNumber(digits: string): boolean {
  if (!/^\d{12}$/.test(digits)) return false;
  let sum = 0;
  // n counts from the right of the first eleven digits: weight n + 1 up to 6, n - 5 after.
  for (let n = 1; n <= 11; n++) {
    const p = digits.charCodeAt(11 - n) - 48;
    sum += p * (n <= 6 ? n + 1 : n - 5);
  }
  const r = sum % 11;
  const check = r <= 1 ? 0 : 11 - r;
  return digits.charCodeAt(11) - 48 === check;
}
