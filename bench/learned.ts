// npm run bench:learned — speed of the learned detectors:
// model load time, and milliseconds per 1,000 characters for all learned
// detectors that apply to a part, on one core (this process, no workers).
// Texts are the project's generated examples (no corpus text), varied so the
// per-text feature cache only helps within a part, as in the engine.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildService } from "../scripts/build.mjs";
import { generatePromptData } from "../training/generators/prompts.js";
import { generateModerationGrammar } from "../training/generators/moderation.js";
import { generateCrudData } from "../training/generators/tools.js";
import { rng } from "../training/prng.js";
import type { Part } from "../src/screening/parts.js";

// The detectors as they ship: compiled by the build (dist/), not through the
// TypeScript loader the training generators run under, whose keep-names
// wrappers around every inner closure cost the tool-call detectors ~10%.
const dist = path.dirname(await buildService());
type Registry = typeof import("../src/screening/registry.js");
type ModelStore = typeof import("../src/screening/detectors/learned/runtime/model-store.js");
type Models = typeof import("../src/screening/detectors/learned/runtime/models.js");
const { detectFnOf } = (await import(pathToFileURL(path.join(dist, "screening/registry.js")).href)) as Registry;
const { loadModelFiles } = (await import(pathToFileURL(path.join(dist, "screening/detectors/learned/runtime/model-store.js")).href)) as ModelStore;
const { loadModels } = (await import(pathToFileURL(path.join(dist, "screening/detectors/learned/runtime/models.js")).href)) as Models;

const t0 = performance.now();
loadModelFiles();
const coldLoad = performance.now() - t0;
const models = loadModels();
console.log(`model load: ${coldLoad.toFixed(0)} ms (files: ${models.manifest.version})`);

const contentTypes = ["prompt_attack", ...["hate", "sexual", "violence", "weapons", "crime", "self_harm"].map((c) => `moderated_content/${c}`)];
const callTypes = [
  "tool_risk/create",
  "tool_risk/read",
  "tool_risk/update",
  "tool_risk/delete",
  "tool_risk/payload",
  "tool_risk/untrusted_destination",
  "dangerous_deviation",
];

const r = rng(1);
const texts = [...generatePromptData(r).map((g) => g.text), ...generateModerationGrammar(r).map((g) => g.text)];
// Long documents too: concatenations of several generated texts.
for (let i = 0; i + 8 < 400; i += 8) texts.push(texts.slice(i, i + 8).join("\n\n"));
const calls = generateCrudData(r);
const userPart: Part = { location: "user::content", messageId: 0, text: "Summarize my files please." };

function runContent(text: string): void {
  const part: Part = { location: "user::content", messageId: 0, text };
  for (const t of contentTypes) detectFnOf(t)!(text, part, { type: t, location: part.location }, { parts: [part] });
}
function runCall(name: string, args: string): void {
  const part: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: args, toolName: name };
  const context = { parts: [userPart, part] };
  for (const t of callTypes) detectFnOf(t)!(args, part, { type: t, location: part.location }, context);
}

// Warm up the JIT, then measure.
for (let i = 0; i < 300; i++) runContent(texts[i % texts.length] + " " + i);
let chars = 0;
const start = performance.now();
for (let pass = 0; pass < 3; pass++) {
  texts.forEach((text, i) => {
    const t = `${text} ${pass}-${i}`; // a new string each pass: no cache hits across passes
    chars += t.length;
    runContent(t);
  });
}
const contentMs = performance.now() - start;
let callChars = 0;
const callStart = performance.now();
for (let pass = 0; pass < 3; pass++) {
  calls.forEach((c, i) => {
    const args = c.args.replace(/\}$/, `,"n":${pass * 100000 + i}}`);
    callChars += args.length + c.name.length;
    runCall(c.name, args);
  });
}
const callMs = performance.now() - callStart;
console.log(
  `content parts (prompt_attack + 6 moderation heads): ${texts.length * 3} texts, ${(chars / 1000).toFixed(0)}k chars, ${((contentMs / chars) * 1000).toFixed(3)} ms per 1,000 chars`,
);
console.log(
  `tool calls (CRUD x4, payload, untrusted_destination, dangerous_deviation): ${calls.length * 3} calls, ${((callMs / callChars) * 1000).toFixed(3)} ms per 1,000 chars, ${((callMs / (calls.length * 3)) * 1000).toFixed(1)} µs per call`,
);
const total = ((contentMs + callMs) / (chars + callChars)) * 1000;
console.log(`all learned detectors: ${total.toFixed(3)} ms per 1,000 chars (target <= 1 ms)`);
