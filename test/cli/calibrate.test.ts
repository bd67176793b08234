// `parapet calibrate` as a user runs it (bin/parapet.js in a child process): usage errors, bad
// data refused by line before any model or judge is loaded, a judge calibrated against a local
// fake OpenAI-compatible server, and nothing written when it fails.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { readCalibration } from "../../src/screening/calibration/file.js";
import { judgedText, startFakeJudge, verdictLogprobs, type ChatRequestBody } from "../screening/judges/fake-judge.js";

const root = path.resolve(import.meta.dirname, "../..");

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  const clean = { PARAPET_JUDGE_URL: "", PARAPET_JUDGE_MODEL: "", PARAPET_JUDGE_FORMAT: "" };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "bin/parapet.js"), "calibrate", ...args],
      { cwd, env: { ...process.env, ...clean, ...env }, maxBuffer: 1 << 24 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parapet-calibrate-cli-"));
  mkdirSync(path.join(dir, "model"));
  writeFileSync(path.join(dir, "good.jsonl"), JSON.stringify({ text: "hello", label: 0 }) + "\n");
  return dir;
}

describe("parapet calibrate", () => {
  it("usage errors name what is wrong and print the usage (exit 2)", async () => {
    const dir = workspace();
    const cases: [string[], string][] = [
      [["--data", "good.jsonl"], "calibrate needs --model DIR (a model folder) or --model judge"],
      [["--model", "model"], "calibrate needs --data FILE"],
      [["--model", "model", "--data", "good.jsonl", "extra"], "calibrate: unexpected argument 'extra'"],
      [["--model", "model", "--data", "good.jsonl", "--max-fpr", "150%"], "--max-fpr: '150%' is not a share of negatives in [0,1) (0.01 or 1%)"],
      [["--model", "model", "--data", "good.jsonl", "--max-fpr", "1%,2%"], "--max-fpr takes one budget"],
      [["--model", "model", "--data", "good.jsonl", "--max-fpr", "1%,0.5%,2%,3%"], "--max-fpr: the four budgets go from l1 to l4 and must not decrease"],
      [["--model", "model", "--data", "good.jsonl", "--min-score", "2"], "--min-score must be a score in [0,1]; got '2'"],
      [["--model", "model", "--data", "good.jsonl", "--slot", "toxicity"], "--slot must be one of: prompt_attack, moderation, pii"],
      [["--model", "judge", "--data", "good.jsonl", "--slot", "pii"], "--slot is for a model folder"],
      [["--model", "model", "--data", "-"], "--data needs a file: calibration reads it twice"],
      [["--model", "model", "--data", "good.jsonl", "--treshold", "1"], "Unknown option '--treshold'"],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args, dir);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(message);
      expect(r.stderr, args.join(" ")).toContain("parapet calibrate --model DIR|judge --data FILE.jsonl");
    }
  });

  it("input it cannot use is refused in one line without the usage (exit 2)", async () => {
    const dir = workspace();
    const cases: [string[], string][] = [
      [["--model", "absent", "--data", "good.jsonl"], "parapet: --model absent: not a folder (a Hugging Face model folder, or 'judge')\n"],
      [["--model", "model", "--data", "absent.jsonl"], "parapet: cannot read absent.jsonl: ENOENT\n"],
      [["--model", "model", "--data", "model"], "parapet: model is not a regular file\n"],
      [
        ["--model", "judge", "--data", "good.jsonl"],
        "parapet: --model judge: no judge is configured (set PARAPET_JUDGE_URL, PARAPET_JUDGE_MODEL and PARAPET_JUDGE_FORMAT, docs/judges.md)\n",
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args, dir);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toBe(message);
    }
  });

  it("lists bad rows as file:line before loading the model, and writes nothing (exit 2)", async () => {
    const dir = workspace();
    const rows = [
      JSON.stringify({ text: "fine", label: 0 }),
      JSON.stringify({ text: "x", label: "maybe", location: "tool::output" }),
      "oops",
      "",
      JSON.stringify({ text: "y" }),
    ];
    writeFileSync(path.join(dir, "bad.jsonl"), rows.join("\n"));
    // The folder holds no model: the rows are refused before anyone tries to load one.
    const r = await cli(["--model", "model", "--data", "bad.jsonl"], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "parapet: bad.jsonl: 3 bad rows: nothing was scored",
        `  bad.jsonl:2: "location" must be one of user::content, assistant::content, assistant::tool_call, tool::content, tool_definition::content; got "tool::output"`,
        "  bad.jsonl:3: not a JSON object (a row is one JSON object on one line)",
        `  bad.jsonl:5: "label" must be 0 or 1, true or false, a label name or a list of label names (the row has none)`,
        "",
      ].join("\n"),
    );
    expect(existsSync(path.join(dir, "model", "parapet-calibration.json"))).toBe(false);
  });

  it("is listed in the usage text", async () => {
    const r = await cli(["--help"], workspace());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("parapet calibrate --model DIR|judge --data FILE.jsonl [--out FILE] [--max-fpr 1%|l1,l2,l3,l4]");
  });
});

describe("parapet calibrate --model judge", () => {
  // A Llama Guard 3 judge whose probability of "unsafe" is written in the text (`p=0.73`): the thresholds
  // can be worked out from the rows.
  const answer = (body: ChatRequestBody) => {
    const p = Number(/p=([0-9.]+)/.exec(judgedText(body))?.[1] ?? 0);
    const content = p >= 0.5 ? "unsafe\nS1" : "safe";
    return { content, logprobs: verdictLogprobs(content, "unsafe", "safe", p) };
  };

  it("scores every row with the PARAPET_JUDGE_* judge and writes thresholds the service loads", async () => {
    const fake = await startFakeJudge(answer);
    try {
      const dir = workspace();
      // 400 negatives with p spread over [0, 0.6), 50 violent rows over [0.5, 1).
      const rows = [
        ...Array.from({ length: 400 }, (_, i) => ({ text: `a quiet evening p=${((0.6 * i) / 400).toFixed(4)}`, label: 0 })),
        ...Array.from({ length: 50 }, (_, i) => ({ text: `a threat p=${(0.5 + (0.5 * i) / 50).toFixed(4)}`, label: 1, language: "en" })),
      ];
      writeFileSync(path.join(dir, "labelled.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n"));
      const env = { PARAPET_JUDGE_URL: fake.url, PARAPET_JUDGE_MODEL: "llama-guard-3-8b", PARAPET_JUDGE_FORMAT: "llama-guard-3", PARAPET_JUDGE_CONCURRENCY: "4" };
      const r = await cli(["--model", "judge", "--data", "labelled.jsonl", "--label", "violence", "--out", "judge.json"], dir, env);
      expect(r.stderr).toBe("scoring 450 rows with judge:llama-guard-3-8b for violence\n");
      expect(r.code).toBe(0);
      expect(fake.received).toHaveLength(450);
      expect(fake.maxInFlight).toBeLessThanOrEqual(4);
      expect(r.stdout).toContain("judge:llama-guard-3-8b: 450 rows, 50 positive for a label");
      expect(r.stdout).toContain("violence: 450 rows, 50 positive, 400 negative");
      expect(r.stdout).toContain(
        `wrote ${path.join(dir, "judge.json")}\nthe service reads it with PARAPET_JUDGE_CALIBRATION=${path.join(dir, "judge.json")} (at start)\n`,
      );
      const written = readCalibration(path.join(dir, "judge.json"));
      expect(written).toMatchObject({ model: "judge:llama-guard-3-8b", data: { rows: 450, positives: 50 } });
      // l4's budget, 1% of 400 negatives: 4 of them at or above it, the highest p being 0.5985.
      const l4 = written.thresholds.violence.default.l4_less_likely;
      expect(rows.filter((x) => x.label === 0 && Number(x.text.split("p=")[1]) >= l4)).toHaveLength(4);
      // The service takes the file for this judge.
      const config = loadConfig({ ...env, PARAPET_JUDGE_CALIBRATION: path.join(dir, "judge.json") });
      expect(config.judge?.calibration).toEqual(written);
    } finally {
      await fake.close();
    }
  });

  it("refuses rows at a location the judge does not read before calling it, and says when the judge fails (exit 1, nothing written)", async () => {
    const fake = await startFakeJudge(answer);
    try {
      const dir = workspace();
      const env = { PARAPET_JUDGE_URL: fake.url, PARAPET_JUDGE_MODEL: "llama-guard-3-8b", PARAPET_JUDGE_FORMAT: "llama-guard-3" };
      writeFileSync(
        path.join(dir, "docs.jsonl"),
        [
          { text: "x", label: 0 },
          { text: "a document", label: 0, location: "tool::content" },
        ]
          .map((r) => JSON.stringify(r))
          .join("\n"),
      );
      const refused = await cli(["--model", "judge", "--data", "docs.jsonl", "--label", "violence"], dir, env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        "docs.jsonl:2: judge:llama-guard-3-8b does not score tool::content rows (it scores user::content, assistant::content, assistant::tool_call)",
      );
      expect(fake.received).toHaveLength(0);
      fake.handler = () => ({ status: 500, raw: "overloaded" });
      const failed = await cli(["--model", "judge", "--data", "good.jsonl", "--label", "violence"], dir, { ...env, PARAPET_JUDGE_TIMEOUT_MS: "500" });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/parapet: judge call failed: .*500/);
      expect(existsSync(path.join(dir, "parapet-calibration.json"))).toBe(false);
    } finally {
      await fake.close();
    }
  });
});
