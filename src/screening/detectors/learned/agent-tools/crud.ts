// tool_risk/create, read, update, delete: what a tool call
// does. Tokens come from the function name (split snake/camel/dots), the
// argument keys, operation-bearing values (HTTP method, SQL statement, shell
// command, action/operation fields) and the tool's definition when the
// request carries it; the verb lexicon maps words to a CRUD class. Four
// one-vs-rest logistic heads (models/crud.bin) score the tokens.
import { crudOfWord, HTTP_CRUD, SQL_CRUD } from "./crud-lexicon.js";
import { argKeys, argValues, nameWords } from "./tool-calls.js";

const METHOD_KEYS = new Set(["method", "http_method", "httpmethod", "verb", "request_method"]);
const SQL_KEYS = /^(sql|query|statement|stmt|q)$/i;
const SHELL_KEYS = /^(command|cmd|script|shell|args|argv|commandline|command_line|run)$/i;
const ACTION_KEYS = /^(action|operation|op|mode|type|intent|method_name|task)$/i;
const SKIP_SHELL = new Set(["sudo", "env", "nohup", "time", "command", "exec", "xargs"]);

export function crudTokens(name: string, args: string, definition?: string): string[] {
  const t: string[] = [];
  const words = nameWords(name);
  words.forEach((w, i) => {
    t.push("n:" + w);
    const c = crudOfWord(w);
    if (c) {
      t.push("nl:" + c);
      if (i === 0) t.push("n0l:" + c);
      if (i === words.length - 1) t.push("nzl:" + c);
    }
  });
  if (words.length) t.push("n0:" + words[0], "nz:" + words[words.length - 1]);
  for (const k of argKeys(args).slice(0, 20)) for (const w of nameWords(k)) t.push("k:" + w);
  const shellArgs: string[] = [];
  for (const v of argValues(args, 40)) {
    const key = v.key.toLowerCase();
    const value = v.value.trim();
    if (METHOD_KEYS.has(key) && HTTP_CRUD[value.toUpperCase()]) t.push("op:" + HTTP_CRUD[value.toUpperCase()], "op:" + HTTP_CRUD[value.toUpperCase()]);
    const sqlWord = /^\s*\(?\s*([a-z]+)/i.exec(value)?.[1]?.toLowerCase();
    if (sqlWord && SQL_CRUD[sqlWord] && (SQL_KEYS.test(key) || /\b(from|into|table|set|where)\b/i.test(value))) t.push("op:" + SQL_CRUD[sqlWord], "sql:" + sqlWord);
    if (SHELL_KEYS.test(key)) shellArgs.push(value);
    if (ACTION_KEYS.test(key) && value.length < 40) {
      for (const w of nameWords(value)) {
        const c = crudOfWord(w);
        if (c) t.push("op:" + c);
      }
    }
  }
  if (shellArgs.length) {
    // The command word: first token that is not a wrapper or a VAR=value assignment; git/docker subcommands too.
    const tokens = shellArgs.join(" ").split(/\s+/).filter(Boolean);
    let i = 0;
    while (i < tokens.length && (SKIP_SHELL.has(tokens[i]) || /^\w+=/.test(tokens[i]))) i++;
    const cmd = (tokens[i] ?? "").replace(/^.*\//, "").toLowerCase();
    if (cmd) {
      t.push("sh:" + cmd);
      const sub = (tokens[i + 1] ?? "").toLowerCase();
      const c = crudOfWord(cmd) ?? (["git", "docker", "kubectl", "npm", "gh"].includes(cmd) ? crudOfWord(sub) : undefined);
      if (c) t.push("op:" + c);
      if (tokens.some((x) => x === "-D" || x === "--delete" || x === "rm" || x === "rmi")) t.push("op:delete");
      if (/\bsed\s+-i\b|>\s*\S/.test(shellArgs.join(" "))) t.push("op:update");
    }
  }
  if (definition) {
    const lines = definition.split("\n");
    const desc = lines.slice(1, lines.length > 2 ? -1 : undefined).join(" ");
    const dw = desc
      .toLowerCase()
      .split(/[^a-z0-9-]+/)
      .filter(Boolean)
      .slice(0, 30);
    let first = true;
    for (const w of dw) {
      t.push("d:" + w);
      const c = crudOfWord(w.endsWith("s") && !crudOfWord(w) ? w.slice(0, -1) : w) ?? crudOfWord(w.replace(/e?s$/, ""));
      if (c) {
        t.push("dl:" + c);
        if (first) t.push("d0l:" + c);
        first = false;
      }
    }
    if (/read[- ]only/i.test(desc)) t.push("d:readonly");
  }
  return t;
}

/**
 * One-vs-rest head scores -> shares that sum to 1: a call is one operation, so
 * a strong "read" lowers "update" (the levels are calibrated on these shares).
 */
export function crudShares(raw: number[]): number[] {
  const sum = raw.reduce((a, b) => a + b, 0) || 1;
  return raw.map((x) => x / sum);
}
