// `parapet calibrate --model judge` (docs/judges.md#calibration): the judge's
// score per detector label for each labelled row, the same score the service
// turns into a level (prepass.ts scoreOf), so thresholds chosen on these scores
// mean the same when the service applies them. Rows are judged as the service
// judges a part at their location; no request deadline applies, only the
// per-call timeout, and a call that fails stops the calibration with its cause.
import type { CalibrationScorer } from "../calibration/scorer.js";
import type { Location } from "../vocabulary.js";
import type { Turn } from "./format.js";
import { Judge, JudgeSkip } from "./judge.js";
import { DEFAULT_JUDGE_THRESHOLDS, labelOf, scoreOf } from "./prepass.js";
import { judgeModelName, type JudgeSettings } from "./settings.js";

const ROLE_AT: Partial<Record<Location, Turn["role"]>> = { "user::content": "user", "assistant::content": "agent", "assistant::tool_call": "agent" };

export async function judgeCalibrationScorer(settings: JudgeSettings): Promise<CalibrationScorer> {
  // The configured breaker would stop a long calibration at the first bad minute: calibration reports failures itself.
  // A call waits for a slot up to ten timeouts: a row may take several calls, and rows keep every slot busy.
  const judge = new Judge({ ...settings, breakerFailures: Number.MAX_SAFE_INTEGER });
  const { format } = judge;
  const types = [...new Set(format.categories.flatMap((c) => c.detectors))];
  const labels = [...new Set(types.map(labelOf))];
  const wanted = new Set(types);

  async function scoreRow(text: string, location: Location): Promise<number[]> {
    const role = ROLE_AT[location];
    if (!role) throw new Error(`the judge reads user::content, assistant::content and assistant::tool_call rows, not ${location}`);
    const calls = format.calls({ role, text }, wanted);
    const verdicts = await Promise.all(
      calls.map((c) =>
        judge.verdict(c, Date.now() + settings.timeoutMs * 10).catch((err: unknown) => {
          throw new Error(`judge call failed: ${err instanceof JudgeSkip ? err.message : String(err)}`);
        }),
      ),
    );
    const scores = new Map<string, number>();
    verdicts.forEach((v, i) => {
      for (const c of format.categories) {
        if (!calls[i].covers.includes(c.id)) continue;
        const { score } = scoreOf(v, c, DEFAULT_JUDGE_THRESHOLDS);
        for (const t of c.detectors) scores.set(labelOf(t), Math.max(scores.get(labelOf(t)) ?? 0, score));
      }
    });
    return labels.map((l) => scores.get(l) ?? 0);
  }

  return {
    name: judgeModelName(settings),
    labels,
    locations: Object.keys(ROLE_AT) as Location[],
    async score(rows) {
      // As many rows at once as the judge takes calls at once, so its concurrency limit never has to turn one away.
      const out: number[][] = new Array<number[]>(rows.length);
      let next = 0;
      const worker = async () => {
        while (next < rows.length) {
          const i = next++;
          out[i] = await scoreRow(rows[i].text, rows[i].location);
        }
      };
      await Promise.all(Array.from({ length: Math.min(settings.concurrency, rows.length) }, worker));
      return out;
    },
    async close() {
      judge.close();
    },
  };
}
