// `parapet screen`: one text through POST /v2/guard of the running service, the verdict out, and
// an exit status a script can branch on (docs/cli.md#screen). Screening needs the detectors and
// the policies the service holds, so there is no offline mode.
import { open } from "node:fs/promises";
import { parseArgs } from "node:util";
import { restCall } from "./api-call.js";
import { missingKeyHelp, screeningKey, serviceTarget } from "./find-service.js";
import { InputError, oneOf, UsageError } from "./usage.js";

/** Exit status of a flagged verdict: apart from 1 (the command failed) and 2 (usage). */
const FLAGGED_EXIT = 3;

/** Every service refuses bodies above this (PARAPET_MAX_BODY_BYTES' ceiling): larger input is not read at all. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const roles = ["user", "assistant", "system", "tool"] as const;

interface GuardAnswer {
  flagged: boolean;
  payload: { start: number; end: number; text: string; detector_type: string; message_id: number }[];
  breakdown: { project_id: string; policy_id: string; detector_type: string; detected: boolean }[];
  metadata: { request_uuid: string };
}

/** Text that is not UTF-8, or holds NUL bytes, is a binary file sent by mistake: refused, not screened as garbage. */
function textOf(bytes: Buffer, name: string): string {
  if (bytes.includes(0)) throw new InputError(`${name} is not text (it holds NUL bytes, as binary files do): nothing was screened`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new InputError(`${name} is not UTF-8 text: nothing was screened`);
  }
  if (text.length === 0) throw new InputError(`${name} is empty: nothing to screen`);
  return text;
}

async function readBounded(chunks: AsyncIterable<Buffer | string>, name: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > MAX_INPUT_BYTES) throw new InputError(`${name} is larger than ${MAX_INPUT_BYTES} bytes, more than any service accepts: nothing was screened`);
    parts.push(b);
  }
  return Buffer.concat(parts);
}

async function readInput(file: string): Promise<string> {
  if (file === "-") return textOf(await readBounded(process.stdin, "standard input"), "standard input");
  let handle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    throw new InputError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new InputError(`${file} is not a regular file`);
    if (info.size > MAX_INPUT_BYTES) throw new InputError(`${file} is ${info.size} bytes, more than any service accepts (${MAX_INPUT_BYTES}): nothing was screened`);
    return textOf(await readBounded(handle.createReadStream({ autoClose: false }), file), file);
  } finally {
    await handle.close();
  }
}

function printVerdict(answer: GuardAnswer): void {
  const lines = [`flagged: ${answer.flagged}`];
  const fired = answer.breakdown.filter((b) => b.detected).map((b) => b.detector_type);
  lines.push(`detected: ${[...new Set(fired)].join(", ") || "nothing"}`);
  // JSON quoting keeps control characters of hostile input off the terminal.
  for (const s of answer.payload) lines.push(`span: ${s.detector_type} [${s.start}, ${s.end}) ${JSON.stringify(s.text)}`);
  const first = answer.breakdown[0];
  if (first) lines.push(`policy: ${first.policy_id} (project ${first.project_id})`);
  lines.push(`request: ${answer.metadata.request_uuid}`);
  process.stdout.write(lines.join("\n") + "\n");
}

/** Returns the exit status: 0 not flagged, FLAGGED_EXIT flagged. */
export async function screen(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      file: { type: "string", short: "f" },
      project: { type: "string" },
      role: { type: "string" },
      json: { type: "boolean" },
      url: { type: "string" },
      key: { type: "string" },
    },
  });
  if (values.file !== undefined && positionals.length > 0) throw new UsageError("screen takes TEXT or --file FILE, not both");
  if (values.file === undefined && positionals.length === 0) throw new UsageError("screen needs TEXT or --file FILE (--file - reads standard input)");
  if (values.project === "") throw new UsageError("--project needs a project id");
  const role = oneOf(values.role ?? "user", roles, "--role");
  const target = serviceTarget(values.url);
  const credential = screeningKey(values.key);
  if (!credential) throw new UsageError(`screen needs a screening key: ${missingKeyHelp("screening")}`);
  const text = values.file !== undefined ? await readInput(values.file) : positionals.join(" ");
  if (text.length === 0) throw new InputError("the text is empty: nothing to screen");

  const body = { messages: [{ role, content: text }], project_id: values.project, breakdown: true, payload: true };
  const answer = (await restCall(target, credential, "/v2/guard", body)).body as GuardAnswer;
  if (values.json) process.stdout.write(JSON.stringify(answer) + "\n");
  else printVerdict(answer);
  return answer.flagged ? FLAGGED_EXIT : 0;
}
