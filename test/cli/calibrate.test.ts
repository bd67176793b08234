// `parapet calibrate` as a user runs it (bin/parapet.js in a child process): usage errors, bad
// data refused by line before any model or judge is loaded, and nothing written when it fails.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

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
