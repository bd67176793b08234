// Which service the command talks to and with which key (docs/cli.md#finding-the-service): the
// flags, then the environment, then what the service left in the data directory (its record and
// the bootstrap keys file). Every answer says where it came from, so an error can name the
// setting to change.
import { readFileSync } from "node:fs";
import path from "node:path";
import { cliApiOf, loadConfig } from "../config.js";
import { localUrlOf, readServiceRecord } from "../server/service-record.js";
import { UsageError } from "./usage.js";

export interface ServiceTarget {
  url: string;
  /** Where the URL came from, for messages: "--url", "PARAPET_URL", "the service record ...". */
  from: string;
}

export interface Credential {
  key: string;
  from: string;
}

/** A path as the user would type it: relative to the working directory when inside it. */
export function shown(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? `./${rel}` : file;
}

function checkedUrl(url: string, from: string): ServiceTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${from} must be the service's address, such as http://127.0.0.1:8080; got '${url}'`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`${from} must be an http:// or https:// address; got '${url}'`);
  return { url: parsed.toString().replace(/\/+$/, ""), from };
}

/** The URL given on the command line or in PARAPET_URL, if any: it always means "through the API". */
export function explicitTarget(flag: string | undefined): ServiceTarget | undefined {
  if (flag !== undefined) return checkedUrl(flag, "--url");
  const env = cliApiOf().url;
  return env ? checkedUrl(env, "PARAPET_URL") : undefined;
}

/** Where the service is: --url, PARAPET_URL, its record in the data directory, else HOST and PORT as this shell sets them. */
export function serviceTarget(flag: string | undefined): ServiceTarget {
  const explicit = explicitTarget(flag);
  if (explicit) return explicit;
  const config = loadConfig();
  const record = config.mongodbUri ? undefined : readServiceRecord(config.dataDir);
  if (record) return { url: record.url, from: `the record of the service running on ${shown(config.dataDir)} (pid ${record.pid})` };
  const url = localUrlOf(config.host, config.port, Boolean(config.tls));
  return { url, from: cliApiOf().portSet ? "HOST and PORT" : "the default port 8080 (no service record in the data directory)" };
}

function bootstrapKey(field: "platform_key" | "screening_key"): Credential | undefined {
  const file = loadConfig().bootstrapKeysFile;
  if (!file) return undefined;
  try {
    const keys = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const key = keys[field];
    return typeof key === "string" && key ? { key, from: `${field} of ${shown(file)}` } : undefined;
  } catch {
    return undefined;
  }
}

/** A platform key: --key, PARAPET_PLATFORM_KEY (or PARAPET_API_KEY), the bootstrap keys file; undefined when none. */
export function platformKey(flag: string | undefined): Credential | undefined {
  if (flag) return { key: flag, from: "--key" };
  return cliApiOf().platformKey ?? bootstrapKey("platform_key");
}

/** A screening key: --key, PARAPET_SCREENING_KEY, the bootstrap keys file; undefined when none. */
export function screeningKey(flag: string | undefined): Credential | undefined {
  if (flag) return { key: flag, from: "--key" };
  return cliApiOf().screeningKey ?? bootstrapKey("screening_key");
}

/** What to do when no key was found, naming every place one is looked for. */
export function missingKeyHelp(kind: "platform" | "screening"): string {
  const file = loadConfig().bootstrapKeysFile;
  const env = kind === "platform" ? "PARAPET_PLATFORM_KEY" : "PARAPET_SCREENING_KEY";
  const where = file ? `, or keep the ${kind}_key in ${shown(file)} (written at the first start)` : "";
  return `pass --key with a ${kind} key, set ${env}${where}`;
}
