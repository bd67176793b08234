// The judge's asynchronous pre-pass (docs/judges.md#wiring): before the
// synchronous engine screens a request, every part the judge can read (user
// prompts, agent answers and tool calls) whose location the policy places a
// mapped detector or a custom guardrail in words at is judged, concurrently,
// within the request's judge budget. What the judge decided is left on the part
// (Part.judged) for the engine; what it could not decide gets the project's
// fail mode; the returned notes go to dev_info.
import type { Part } from "../parts.js";
import { levelOf, type LevelThresholds } from "../detectors/learned/runtime/levels.js";
import { thresholdsFor } from "../calibration/file.js";
import { strongest, type Level, type Location } from "../vocabulary.js";
import type { CallSpec, CallVerdict, JudgeCategory, Turn } from "./format.js";
import type { Judge } from "./judge.js";
import type { PartJudgement } from "./part-judgement.js";
import { judgeModelName, type FailMode } from "./settings.js";

/** The parts a judge reads, as which role. */
const ROLE_OF: Partial<Record<Location, Turn["role"]>> = { "user::content": "user", "assistant::content": "agent", "assistant::tool_call": "agent" };

/** Time kept back from the request's deadline for the engine and the log write after the judge. */
const JUDGE_RESERVE_MS = 200;

/** Levels from a judge's probability when no calibration file says otherwise (as for other models Parapet has not calibrated). */
export const DEFAULT_JUDGE_THRESHOLDS: LevelThresholds = { l1_confident: 0.98, l2_very_likely: 0.9, l3_likely: 0.75, l4_less_likely: 0.5 };

/** The level of an unsafe verdict when the server returned no probability: the judge's own decision, short of certain. */
const FIXED_JUDGE_LEVEL: Level = "l2_very_likely";

/** dev_info lines one request may get from the judge; the rest are counted. */
const MAX_NOTES = 20;

export interface PrepassRequest {
  /** The policy's detectors, by type and location. */
  detectors: readonly { type: string; location: string }[];
  /** The policy's custom guardrails; those with a `judge_policy` are judged. */
  guardrails: readonly { _id: string; name: string; locations: readonly string[]; judge_policy?: string }[];
  parts: Part[];
  /** The request's deadline (epoch ms); the judge's budget ends JUDGE_RESERVE_MS before it. */
  deadline: number;
  failMode: FailMode;
}

/** A detector label in calibration files: the type's last segment (moderated_content/hate -> hate). */
export function labelOf(type: string): string {
  return type.slice(type.lastIndexOf("/") + 1);
}

/** The turn a part stands for: its text, and for an agent's answer the user message before it. */
function turnOf(part: Part, parts: readonly Part[]): Turn | undefined {
  const role = ROLE_OF[part.location];
  if (!role || !part.text.trim()) return undefined;
  const text = part.location === "assistant::tool_call" ? `${part.toolName ?? ""}(${part.text})` : part.text;
  if (role === "user") return { role, text };
  let prompt: string | undefined;
  for (const p of parts) if (p.location === "user::content" && (p.messageId ?? 0) < (part.messageId ?? 0)) prompt = p.text;
  return { role, text, prompt };
}

function where(part: Part): string {
  return part.location === "assistant::tool_call" ? `message ${part.messageId}, tool call ${part.toolId}` : `message ${part.messageId}`;
}

/** One call's contribution to a detector type: the score calibration sees, and the level it gives. */
export function scoreOf(v: CallVerdict, category: JudgeCategory, thresholds: LevelThresholds): { score: number; level: Level } {
  const flagged = v.flagged.includes(category.id);
  const p = v.probability;
  // A safe answer's doubt applies to every category it covered; an unsafe one for another category says nothing of this one.
  const score = flagged ? (p ?? 1) : v.unsafe ? 0 : (p ?? 0);
  const level = p === undefined ? (flagged ? FIXED_JUDGE_LEVEL : "l5_unlikely") : levelOf(score, thresholds);
  return { score, level };
}

export class JudgePrepass {
  private readonly model: string;

  constructor(private readonly judge: Judge) {
    this.model = judgeModelName(judge.settings);
  }

  /** Whether the judge's format applies custom guardrails written in words (gpt-oss-safeguard's does). */
  get readsPoliciesInWords(): boolean {
    return this.judge.format.guardrailCall !== undefined;
  }

  /** The service's fail mode, which a project's metadata may override. */
  get failMode(): FailMode {
    return this.judge.settings.failMode;
  }

  /** Judges the request's parts, leaves the judgements on them, and returns the notes for dev_info. */
  async run(req: PrepassRequest): Promise<string[]> {
    const notes: string[] = [];
    const budget = req.deadline - JUDGE_RESERVE_MS;
    await Promise.all(req.parts.map((part) => this.judgePart(part, req, budget, notes)));
    if (notes.length <= MAX_NOTES) return notes;
    return [...notes.slice(0, MAX_NOTES), `judge: ${notes.length - MAX_NOTES} more notes`];
  }

  private async judgePart(part: Part, req: PrepassRequest, budget: number, notes: string[]): Promise<void> {
    const { format } = this.judge;
    const placed = new Set(req.detectors.filter((d) => d.location === part.location).map((d) => d.type));
    const wanted = new Set(format.categories.flatMap((c) => c.detectors).filter((t) => placed.has(t)));
    const inWords = req.guardrails.filter((g) => g.judge_policy && g.locations.includes(part.location));
    if (!wanted.size && !inWords.length) return;
    const turn = turnOf(part, req.parts);
    if (!turn) return;
    const calls = format.calls(turn, wanted);
    const guardrailCalls = format.guardrailCall ? inWords.map((g) => ({ g, spec: format.guardrailCall!(turn, g.judge_policy!) })) : [];
    if (!format.guardrailCall)
      for (const g of inWords) notes.push(`custom guardrail ${g._id}, ${where(part)}: written in words, which only a gpt-oss-safeguard judge applies`);
    const [verdicts, guardrailVerdicts] = await Promise.all([
      Promise.allSettled(calls.map((c) => this.judge.verdict(c, budget))),
      Promise.allSettled(guardrailCalls.map((c) => this.judge.verdict(c.spec, budget))),
    ]);
    const judgement: PartJudgement = { model: this.model, combine: this.judge.settings.combine, detectors: {}, guardrails: {} };
    this.decideDetectors(part, calls, verdicts, wanted, req.failMode, judgement, notes);
    guardrailCalls.forEach(({ g }, i) => {
      const r = guardrailVerdicts[i];
      if (r.status === "fulfilled") {
        const { unsafe, probability: p } = r.value;
        const level: Level = unsafe ? (p === undefined ? "l1_confident" : strongest([levelOf(p, DEFAULT_JUDGE_THRESHOLDS), "l4_less_likely"])) : "l5_unlikely";
        judgement.guardrails[g._id] = { level, matched: unsafe };
        return;
      }
      const then = req.failMode === "closed" ? "fail-closed: matched" : "fail-open: not applied";
      notes.push(this.skipNote(`custom guardrail ${g._id}`, part, r.reason, then));
      if (req.failMode === "closed") judgement.guardrails[g._id] = { level: "l1_confident", matched: true, note: "judge unavailable: fail-closed" };
    });
    part.judged = judgement;
  }

  private decideDetectors(
    part: Part,
    calls: CallSpec[],
    verdicts: PromiseSettledResult<CallVerdict>[],
    wanted: ReadonlySet<string>,
    failMode: FailMode,
    judgement: PartJudgement,
    notes: string[],
  ): void {
    const { categories } = this.judge.format;
    const calibration = this.judge.settings.calibration;
    const failed = verdicts.flatMap((r, i) => (r.status === "rejected" ? [{ call: calls[i], reason: r.reason as unknown }] : []));
    for (const type of wanted) {
      const relevant = categories.filter((c) => c.detectors.includes(type));
      const miss = failed.find((f) => f.call.covers.some((id) => relevant.some((c) => c.id === id)));
      if (miss) {
        if (failMode === "closed") judgement.detectors[type] = { level: "l1_confident", note: "judge unavailable: fail-closed" };
        continue;
      }
      const thresholds = (calibration && thresholdsFor(calibration, labelOf(type), part.location)) || DEFAULT_JUDGE_THRESHOLDS;
      const levels: Level[] = [];
      verdicts.forEach((r, i) => {
        if (r.status !== "fulfilled") return;
        for (const c of relevant) if (calls[i].covers.includes(c.id)) levels.push(scoreOf(r.value, c, thresholds).level);
      });
      if (levels.length) judgement.detectors[type] = { level: strongest(levels) };
    }
    if (failed.length) {
      const then = failMode === "closed" ? "fail-closed: flagged" : "fail-open: the built-in detectors decided";
      notes.push(this.skipNote("detectors", part, failed[0].reason, then));
    }
    for (const r of verdicts) if (r.status === "fulfilled") this.flaggedElsewhere(part, r.value, wanted, notes);
  }

  /** Notes for categories the judge flagged that no detector of the policy at this location reports. */
  private flaggedElsewhere(part: Part, v: CallVerdict, wanted: ReadonlySet<string>, notes: string[]): void {
    for (const id of v.flagged) {
      const c = this.judge.format.categories.find((x) => x.id === id);
      if (!c) notes.push(`judge ${this.model}, ${where(part)}: flagged "${id}", a category it does not document`);
      else if (!c.detectors.length) notes.push(`judge ${this.model}, ${where(part)}: flagged ${c.id} (${c.name}), which no Parapet detector reports`);
      else if (!c.detectors.some((d) => wanted.has(d))) {
        notes.push(`judge ${this.model}, ${where(part)}: flagged ${c.id} (${c.name}); ${c.detectors.join(", ")} is not in the policy at ${part.location}`);
      }
    }
  }

  private skipNote(what: string, part: Part, reason: unknown, then: string): string {
    const why = reason instanceof Error ? reason.message : String(reason);
    return `judge ${this.model} skipped (${what}), ${where(part)}: ${why}; ${then}`;
  }
}
