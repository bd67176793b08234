// A model folder's scores for `parapet calibrate`
// (docs/learned-detectors.md#levels-and-the-calibration-file): the
// same tokenizer, windows, label map and inference as the service, on a model
// thread of its own, and per row one score per detector label: a text
// classifier's label probability (its highest window's), a token classifier's
// most confident entity of the label (0 when it finds none).
import { availableParallelism } from "node:os";
import type { CalibrationScorer } from "../calibration/scorer.js";
import { normalizeText } from "../normalize.js";
import { HostStartError, ModelHost } from "./host.js";
import type { LabelPair, ModelSlot } from "./labels.js";
import type { ModelSettings, SlotSettings } from "./settings.js";
import { LoadedSlot, readSlotFiles, whereOf } from "./slot.js";

/** Rows sent to the model thread at once. */
const ROWS_PER_JOB = 64;

const SETTINGS: Record<ModelSlot, string> = { prompt_attack: "PARAPET_PROMPT_ATTACK_MODEL", moderation: "PARAPET_MODERATION_MODEL", pii: "PARAPET_PII_MODEL" };

export interface ScorerOptions extends Partial<Omit<ModelSettings, "slots">> {
  /** The label map override the service is given (its _LABELS setting). */
  labels?: LabelPair[];
}

export async function modelCalibrationScorer(dir: string, slot: ModelSlot, options: ScorerOptions = {}): Promise<CalibrationScorer> {
  const settings: ModelSettings = {
    windowTokens: options.windowTokens ?? 512,
    strideTokens: options.strideTokens ?? 128,
    device: options.device ?? "cpu",
    aggregation: options.aggregation ?? "first",
    threads: options.threads ?? availableParallelism(),
    slots: [],
  };
  const s: SlotSettings = { slot, setting: SETTINGS[slot], dir, labels: options.labels, labelsSetting: `${SETTINGS[slot]}_LABELS`, combine: "replace" };
  const files = await readSlotFiles(s, settings);
  let host: ModelHost;
  try {
    host = await ModelHost.start({ slots: [{ slot, spec: files.spec }], device: settings.device, threads: settings.threads });
  } catch (err) {
    throw err instanceof HostStartError ? new Error(`${whereOf(s)}: ${err.message.split("\n")[0]}`) : err;
  }
  let loaded: LoadedSlot;
  try {
    loaded = LoadedSlot.complete(files, host.slots[0], settings, false);
  } catch (err) {
    await host.close();
    throw err;
  }
  const labels = loaded.labels;
  return {
    name: loaded.name,
    labels,
    async score(rows) {
      const out: number[][] = [];
      for (let i = 0; i < rows.length; i += ROWS_PER_JOB) {
        const texts = rows.slice(i, i + ROWS_PER_JOB).map((r) => normalizeText(r.text).text);
        const scored = texts.filter((t) => t.trim());
        const results = scored.length ? await loaded.score(scored, host.client) : [];
        let k = 0;
        for (const text of texts) {
          if (!text.trim()) {
            out.push(labels.map(() => 0));
            continue;
          }
          const r = results[k++];
          if ("scores" in r) out.push(labels.map((l) => r.scores[loaded.indexOf(l)!].score));
          else out.push(labels.map((l) => Math.max(0, ...r.entities.filter((e) => e.label === l).map((e) => e.score))));
        }
      }
      return out;
    },
    close: () => host.close(),
  };
}
