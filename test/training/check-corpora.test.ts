// `npm run corpora:check`: a corpora directory against the fingerprint a
// manifest records, on a small fake corpora directory and a manifest written
// for it here, through the command itself.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CORPUS_FILES, LEARNED_CORPUS_FILES } from "../../training/corpora.js";
import { GENERATOR_VERSION, trainingCorpusDigests, trainingFingerprint } from "../../training/datasets.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

let work: string;
let corpora: string;
let models: string;

/** Writes a manifest for the fake corpora as `npm run train` would: combined fingerprint, generator version, per-file digests. */
function writeManifest(trainingData: Record<string, unknown> = {}): void {
  const h = createHash("sha256");
  for (const f of LEARNED_CORPUS_FILES) h.update(readFileSync(join(corpora, f)));
  h.update(`generators-v${GENERATOR_VERSION}`);
  const files = Object.fromEntries(LEARNED_CORPUS_FILES.map((f) => [f, sha256(readFileSync(join(corpora, f)))]));
  writeFileSync(
    join(models, "manifest.json"),
    JSON.stringify({ trainingData: { fingerprint: h.digest("hex"), generatorVersion: GENERATOR_VERSION, files, ...trainingData } }),
  );
}

async function check(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "training/check-corpora.ts", ...args], {
      cwd: root,
      env: { ...process.env, PARAPET_CORPORA: "" },
    });
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

/** The line the command prints for one file. */
const lineOf = (out: string, file: string) => out.split("\n").find((l) => l.trim().startsWith(file + " ")) ?? "";

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "parapet-corpora-check-"));
  corpora = join(work, "corpora");
  models = join(work, "models");
  mkdirSync(corpora);
  mkdirSync(models);
  for (const f of Object.keys(CORPUS_FILES)) writeFileSync(join(corpora, f), `{"text":"fake row of ${f}","label":"benign","source":"fake"}\n`);
  writeManifest();
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("npm run corpora:check", () => {
  it("accepts the directory the manifest was written for, naming every file it checked", async () => {
    const { code, out } = await check(corpora, "--models", models);
    expect(code).toBe(0);
    for (const f of LEARNED_CORPUS_FILES) expect(lineOf(out, f)).toMatch(/\bsame sha256 [0-9a-f]{64}$/);
    for (const f of ["tool_agent.jsonl", "pii_templates.txt", "profanity_en.csv"]) expect(lineOf(out, f)).toContain("present (evaluation only");
    expect(out).toContain("OK:");
  });

  it("names the file that differs and the one that is missing, and fails", async () => {
    appendFileSync(join(corpora, "moderation_intent.jsonl"), '{"text":"one more row","categories":[],"source":"fake"}\n');
    rmSync(join(corpora, "tool_payloads.jsonl"));
    const { code, out } = await check(corpora, "--models", models);
    expect(code).toBe(1);
    expect(lineOf(out, "moderation_intent.jsonl")).toContain("DIFFERS");
    expect(lineOf(out, "tool_payloads.jsonl")).toContain("MISSING");
    for (const f of LEARNED_CORPUS_FILES.filter((f) => f !== "moderation_intent.jsonl" && f !== "tool_payloads.jsonl")) expect(lineOf(out, f)).toContain(" same ");
    expect(out).toMatch(/NOT the corpora of these models: moderation_intent\.jsonl, tool_payloads\.jsonl$/m);
  });

  it("names a missing evaluation-only file", async () => {
    rmSync(join(corpora, "pii_templates.txt"));
    const { code, out } = await check(corpora, "--models", models);
    expect(code).toBe(1);
    expect(lineOf(out, "pii_templates.txt")).toContain("MISSING");
  });

  it("says when the models were trained with another generator version", async () => {
    writeManifest({ generatorVersion: GENERATOR_VERSION - 1 });
    const { code, out } = await check(corpora, "--models", models);
    expect(code).toBe(1);
    expect(out).toContain(`trained with ${GENERATOR_VERSION - 1}, this code has ${GENERATOR_VERSION}`);
  });

  it("falls back to the combined fingerprint for a manifest without per-file digests", async () => {
    const manifest = JSON.parse(readFileSync(join(models, "manifest.json"), "utf8")) as { trainingData: { files?: unknown } };
    delete manifest.trainingData.files;
    writeFileSync(join(models, "manifest.json"), JSON.stringify(manifest));
    expect((await check(corpora, "--models", models)).code).toBe(0);
    appendFileSync(join(corpora, "multilingual.jsonl"), "\n");
    const { code, out } = await check(corpora, "--models", models);
    expect(code).toBe(1);
    expect(out).toContain("no per-file digests");
  });

  it("reads the directory from PARAPET_CORPORA only when none is named, and needs one", async () => {
    const { code, out } = await check("--models", models);
    expect(code).toBe(2);
    expect(out).toContain("set PARAPET_CORPORA");
    expect((await check(join(work, "nowhere"), "--models", models)).code).toBe(2);
  });
});

describe("what npm run train records", () => {
  it("is what the check compares with: the same combined fingerprint and per-file digests", () => {
    const saved = process.env.PARAPET_CORPORA;
    process.env.PARAPET_CORPORA = corpora;
    try {
      const written = JSON.parse(readFileSync(join(models, "manifest.json"), "utf8")) as { trainingData: { fingerprint: string; files: Record<string, string> } };
      expect(trainingFingerprint()).toBe(written.trainingData.fingerprint);
      expect(trainingCorpusDigests()).toEqual(written.trainingData.files);
    } finally {
      if (saved === undefined) delete process.env.PARAPET_CORPORA;
      else process.env.PARAPET_CORPORA = saved;
    }
  });
});

describe("the shipped manifest", () => {
  it("records a digest of every corpus file the models are trained from, and the generator version", () => {
    const manifest = JSON.parse(readFileSync(join(root, "models", "manifest.json"), "utf8")) as {
      trainingData: { files: Record<string, string>; generatorVersion: number };
    };
    expect(Object.keys(manifest.trainingData.files)).toEqual(LEARNED_CORPUS_FILES);
    for (const digest of Object.values(manifest.trainingData.files)) expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.trainingData.generatorVersion).toBe(GENERATOR_VERSION);
  });
});
