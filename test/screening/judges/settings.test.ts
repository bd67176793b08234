// PARAPET_JUDGE_* at start-up: what they configure, and one clear line for each
// setting the service refuses to start with.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import { failModeOf } from "../../../src/screening/judges/settings.js";

const base = { PARAPET_JUDGE_URL: "http://localhost:8000/v1/", PARAPET_JUDGE_MODEL: "meta-llama/Llama-Guard-3-8B", PARAPET_JUDGE_FORMAT: "llama-guard-3" };

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    const message = (err as Error).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("loadConfig accepted the settings");
}

describe("PARAPET_JUDGE_*", () => {
  it("configures the judge with its defaults, and nothing without PARAPET_JUDGE_URL", () => {
    expect(loadConfig({}).judge).toBeUndefined();
    expect(loadConfig(base).judge).toEqual({
      url: "http://localhost:8000/v1",
      model: "meta-llama/Llama-Guard-3-8B",
      format: "llama-guard-3",
      apiKey: undefined,
      timeoutMs: 2000,
      concurrency: 16,
      failMode: "open",
      combine: "max",
      breakerFailures: 5,
      breakerCooldownMs: 10_000,
    });
    // The whole endpoint is taken for the base it ends with.
    expect(loadConfig({ ...base, PARAPET_JUDGE_URL: "https://judge.internal/v1/chat/completions" }).judge?.url).toBe("https://judge.internal/v1");
  });

  it("refuses to start with one line naming the setting", () => {
    expect(refusal({ ...base, PARAPET_JUDGE_FORMAT: "llama-guard-2" })).toBe(
      "PARAPET_JUDGE_FORMAT must be one of llama-guard-3, llama-guard-4, shieldgemma, granite-guardian, gpt-oss-safeguard, got 'llama-guard-2'",
    );
    expect(refusal({ ...base, PARAPET_JUDGE_URL: "localhost:8000" })).toMatch(/^PARAPET_JUDGE_URL must be http or https/);
    expect(refusal({ ...base, PARAPET_JUDGE_URL: "not a url" })).toMatch(/^PARAPET_JUDGE_URL must be an http\(s\) base URL/);
    expect(refusal({ ...base, PARAPET_JUDGE_URL: "http://h/v1?x=1" })).toMatch(/^PARAPET_JUDGE_URL is a base URL/);
    expect(refusal({ ...base, PARAPET_JUDGE_URL: "http://user:secret@h/v1" })).toMatch(/must not carry credentials: set PARAPET_JUDGE_API_KEY/);
    expect(refusal({ ...base, PARAPET_JUDGE_MODEL: "" })).toMatch(/PARAPET_JUDGE_MODEL .* is not$/);
    expect(refusal({ ...base, PARAPET_JUDGE_FORMAT: "" })).toMatch(/PARAPET_JUDGE_FORMAT is not; one of llama-guard-3/);
    expect(refusal({ PARAPET_JUDGE_MODEL: "x" })).toBe("PARAPET_JUDGE_MODEL is set but PARAPET_JUDGE_URL (the judge's OpenAI-compatible base URL) is not");
    expect(refusal({ ...base, PARAPET_JUDGE_FAIL_MODE: "shut" })).toBe("PARAPET_JUDGE_FAIL_MODE must be one of open, closed, got 'shut'");
    expect(refusal({ ...base, PARAPET_JUDGE_COMBINE: "min" })).toMatch(/^PARAPET_JUDGE_COMBINE must be one of max, replace/);
    expect(refusal({ ...base, PARAPET_JUDGE_TIMEOUT_MS: "0" })).toMatch(/^PARAPET_JUDGE_TIMEOUT_MS must be an integer from 10/);
    expect(refusal({ ...base, PARAPET_JUDGE_CONCURRENCY: "many" })).toMatch(/^PARAPET_JUDGE_CONCURRENCY must be an integer/);
  });

  it("reads the calibration file, refusing one written for another model", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "judge-cal-"));
    const file = (model: string) => {
      const p = path.join(dir, `${model.replace(/\W/g, "_")}.json`);
      const t = { l1_confident: 0.9, l2_very_likely: 0.8, l3_likely: 0.6, l4_less_likely: 0.3 };
      writeFileSync(
        p,
        JSON.stringify({
          format: "parapet-calibration/1",
          model,
          created: new Date().toISOString(),
          data: { rows: 10, positives: 5 },
          thresholds: { hate: { default: t } },
        }),
      );
      return p;
    };
    const judge = loadConfig({ ...base, PARAPET_JUDGE_CALIBRATION: file("judge:meta-llama/Llama-Guard-3-8B") }).judge;
    expect(judge?.calibration?.thresholds.hate.default.l4_less_likely).toBe(0.3);
    expect(refusal({ ...base, PARAPET_JUDGE_CALIBRATION: file("judge:other") })).toMatch(
      /^PARAPET_JUDGE_CALIBRATION: .* was written for judge:other, not judge:meta-llama\/Llama-Guard-3-8B$/,
    );
    expect(refusal({ ...base, PARAPET_JUDGE_CALIBRATION: path.join(dir, "missing.json") })).toMatch(/^calibration file .*missing\.json: cannot be read \(ENOENT\)$/);
  });

  it("a project's metadata overrides the fail mode", () => {
    expect(failModeOf({ "parapet.judge_fail_mode": "closed" }, "open")).toBe("closed");
    expect(failModeOf({}, "closed")).toBe("closed");
    expect(failModeOf(undefined, "open")).toBe("open");
  });
});
