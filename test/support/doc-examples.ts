// The runnable examples of the documentation (docs/architecture.md#tests): a
// fenced block directly preceded by the comment `<!-- runnable -->` (blank
// lines between them are fine). TypeScript blocks are run as programs; shell
// blocks have their curl commands turned into fetch calls, each checked
// against the status and the yes/no and numeric answers its `#` output lines
// document.
const marker = "<!-- runnable -->";

export interface RunnableBlock {
  /** The document, relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
}

/** The marked blocks of a Markdown file, in order; a marker that is not followed by a fenced block is an error. */
export function runnableBlocks(file: string, text: string): RunnableBlock[] {
  const lines = text.split("\n");
  const blocks: RunnableBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== marker) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const fence = /^(`{3,})(\w*)\s*$/.exec(lines[j] ?? "");
    if (!fence) throw new Error(`${file}:${i + 1}: ${marker} must be followed by a fenced code block`);
    const end = lines.findIndex((l, k) => k > j && l.startsWith(fence[1]) && l.trim() === fence[1]);
    if (end < 0) throw new Error(`${file}:${j + 1}: the code block is not closed`);
    blocks.push({ file, line: j + 1, lang: fence[2], code: lines.slice(j + 1, end).join("\n") });
    i = end;
  }
  return blocks;
}

export interface CurlCall {
  method: string;
  /** The path and query, as written after the host. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The documented answer: the `#` lines after the command. */
  documented: string;
  command: string;
}

/** Splits a shell command into words as sh would: quotes, `\` line continuations, `$VAR` expansion; stops at `|` or a comment. */
function words(command: string, vars: Record<string, string>): string[] {
  const out: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  const expand = (src: string, at: number): [string, number] => {
    const m = /^\$(\{(\w+)\}|(\w+))/.exec(src.slice(at));
    if (!m) return ["$", at + 1];
    const name = m[2] ?? m[3];
    if (!(name in vars)) throw new Error(`unknown variable $${name} in: ${command}`);
    return [vars[name], at + m[0].length];
  };
  const s = command.replace(/\\\n/g, "");
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      i++;
    } else if (quote === '"') {
      if (c === '"') {
        quote = null;
        i++;
      } else if (c === "$") {
        const [v, next] = expand(s, i);
        word += v;
        i = next;
      } else if (c === "\\" && /["\\$`]/.test(s[i + 1] ?? "")) {
        word += s[i + 1];
        i += 2;
      } else {
        word += c;
        i++;
      }
    } else if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
      i++;
    } else if (c === "|" || (c === "#" && word === null)) {
      break;
    } else {
      word ??= "";
      if (c === "'" || c === '"') {
        quote = c;
        i++;
      } else if (c === "$") {
        const [v, next] = expand(s, i);
        word += v;
        i = next;
      } else {
        word += c;
        i++;
      }
    }
  }
  if (quote) throw new Error(`unclosed quote in: ${command}`);
  if (word !== null) out.push(word);
  return out;
}

/** Whether a command is complete at the end of `text`: no open quote and no trailing `\`. */
function complete(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (quote === '"' && c === "\\") i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]))) {
      const nl = text.indexOf("\n", i);
      if (nl < 0) break;
      i = nl;
    }
  }
  return quote === null && !/\\\s*$/.test(text);
}

const flagsWithoutValue = new Set(["-s", "-i", "-S", "-si", "-sS", "-f", "-L", "--silent", "--include", "--fail", "--show-error"]);

function curlCall(argv: string[], command: string, documented: string): CurlCall {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (flagsWithoutValue.has(a)) continue;
    if (a === "-H" || a === "--header") {
      const h = argv[++i];
      const colon = h.indexOf(":");
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (a === "-d" || a === "--data" || a === "--data-raw" || a === "--data-binary") body = argv[++i];
    else if (a === "-X" || a === "--request") method = argv[++i];
    else if (a.startsWith("-")) throw new Error(`curl option ${a} is not supported by the runnable examples: ${command}`);
    else if (url === undefined) url = a;
    else throw new Error(`a second URL ${a} in: ${command}`);
  }
  if (url === undefined) throw new Error(`no URL in: ${command}`);
  // curl -d sends a form content type unless told otherwise: send what curl sends.
  if (body !== undefined && !("content-type" in headers)) headers["content-type"] = "application/x-www-form-urlencoded";
  const parsed = new URL(/^https?:\/\//.test(url) ? url : `http://${url}`);
  return { method: method ?? (body === undefined ? "GET" : "POST"), path: parsed.pathname + parsed.search, headers, body, documented, command };
}

export interface ShellCommand {
  text: string;
  /** The `#` lines after the command: its documented answer. */
  documented: string;
}

/** The commands of a shell block, with the `#` lines that document each one's answer. */
export function shellCommands(code: string): ShellCommand[] {
  const commands: { text: string; documented: string[] }[] = [];
  let pending = "";
  for (const line of code.split("\n")) {
    if (pending === "" && /^\s*#/.test(line)) {
      commands.at(-1)?.documented.push(line.replace(/^\s*#\s?/, ""));
      continue;
    }
    if (pending === "" && line.trim() === "") continue;
    pending += (pending ? "\n" : "") + line;
    if (complete(pending)) {
      commands.push({ text: pending, documented: [] });
      pending = "";
    }
  }
  if (pending !== "") throw new Error(`unfinished command: ${pending}`);
  return commands.map(({ text, documented }) => ({ text, documented: documented.join("\n") }));
}

/** A command as the fetch call it makes, or null when it is not a curl command (grpcurl, an assignment, ...). */
export function asCurlCall(command: ShellCommand, vars: Record<string, string>): CurlCall | null {
  const argv = words(command.text, vars);
  return argv[0] === "curl" ? curlCall(argv, command.text, command.documented) : null;
}

/** The status a documented answer shows (`HTTP/1.1 404 Not Found`), 200 when it shows none. */
export function documentedStatus(documented: string): number {
  const m = /^HTTP\/[\d.]+ (\d{3})/m.exec(documented);
  return m ? Number(m[1]) : 200;
}

/** `"key": true|false|number` pairs of a documented answer: each must occur in the real one. */
export function documentedValues(documented: string): [key: string, value: boolean | number][] {
  return [...documented.matchAll(/"(\w+)"\s*:\s*(true|false|-?\d+(?:\.\d+)?)(?=\s*[,}\]])/g)].map(([, key, v]) => [
    key,
    v === "true" ? true : v === "false" ? false : Number(v),
  ]);
}

/** Whether `key: value` occurs anywhere in `json`. */
export function hasValue(json: unknown, key: string, value: unknown): boolean {
  if (Array.isArray(json)) return json.some((x) => hasValue(x, key, value));
  if (json === null || typeof json !== "object") return false;
  const o = json as Record<string, unknown>;
  return o[key] === value || Object.values(o).some((x) => hasValue(x, key, value));
}

/** Placeholders such as `gst_4mQ...` or `policy-...`: the id of that kind an earlier answer gave. */
export const placeholder = /\b(gst_|vlt_|policy-|project-|custom-guardrail-)[\w-]*\.\.\./g;

/** Every string of `json` that starts with one of the placeholders' prefixes, by prefix (the last one wins). */
export function idsIn(json: unknown, found: Map<string, string> = new Map()): Map<string, string> {
  if (typeof json === "string") {
    const prefix = /^(gst_|vlt_|policy-|project-|custom-guardrail-)/.exec(json)?.[1];
    if (prefix && !json.includes("-default")) found.set(prefix, json);
  } else if (Array.isArray(json)) for (const x of json) idsIn(x, found);
  else if (json && typeof json === "object") for (const x of Object.values(json)) idsIn(x, found);
  return found;
}
