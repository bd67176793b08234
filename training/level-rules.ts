// The level rules level-sweep.ts compares: false-positive budget tables (fpr-budgets.ts), the current ones
// and the candidates, each applied to every text head the same way.
import type { FprBudgets } from "../src/screening/calibration/fpr-budgets.js";

export interface LevelRule {
  name: string;
  describe: string;
  /** Per head name; `default` for the heads not named. */
  budgets: Record<string, FprBudgets>;
}

const table = (l1: number, l2: number, l3: number, l4: number, minGroupNegatives?: number): FprBudgets => ({
  budgets: { l1_confident: l1, l2_very_likely: l2, l3_likely: l3, l4_less_likely: l4 },
  minScore: 0.1,
  ...(minGroupNegatives === undefined ? {} : { minGroupNegatives }),
});

export const LEVEL_RULES: LevelRule[] = [
  {
    name: "before",
    describe: "prompt_attack 0.05/0.1/0.2/0.4%, moderation 0.05/0.125/0.25/0.5% (pooled)",
    budgets: { prompt_attack: table(0.0005, 0.001, 0.002, 0.004), default: table(0.0005, 0.00125, 0.0025, 0.005) },
  },
  ...[
    [0.0002, 0.001, 0.003, 0.01],
    [0.0002, 0.001, 0.004, 0.015],
  ].flatMap(([a, b, c, d]) => [
    { name: `one ${[a, b, c, d].map((x) => x * 100).join("/")}% pooled`, describe: "every head, pooled over languages", budgets: { default: table(a, b, c, d) } },
    {
      name: `one ${[a, b, c, d].map((x) => x * 100).join("/")}% per language`,
      describe: "every head, in every scored language with >= 200 calibration negatives",
      budgets: { default: table(a, b, c, d, 200) },
    },
  ]),
];

export function budgetsOf(rule: LevelRule, head: string): FprBudgets {
  return rule.budgets[head] ?? rule.budgets.default;
}

/** The rule the shipped models are calibrated by: each recipe's own budgets (training/recipes.ts). */
export function shippedRule(recipes: readonly { name: string; calibration: FprBudgets }[]): LevelRule {
  return { name: "shipped", describe: "training/recipes.ts", budgets: Object.fromEntries(recipes.map((r) => [r.name, r.calibration])) };
}
