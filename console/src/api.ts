// The console's only way to the service: the generated clients over Connect
// (JSON), exactly as a user's own code would call the public API. The key lives
// in sessionStorage, so it goes away with the tab and never reaches disk
// through localStorage or a cookie.
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AnalyticsService } from "../../gen/parapet/v1/analytics_pb.js";
import { ApiKeyService } from "../../gen/parapet/v1/api_keys_pb.js";
import { CustomGuardrailService } from "../../gen/parapet/v1/custom_guardrails_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { LogService } from "../../gen/parapet/v1/logs_pb.js";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { PolicyDraftService } from "../../gen/parapet/v1/policy_drafts_pb.js";
import { ProjectService } from "../../gen/parapet/v1/projects_pb.js";

export interface Session {
  key: string;
  /** Learned at sign-in: a read-only key gets a console without write controls. */
  readOnly: boolean;
}

const sessionItem = "parapet.console.session";
const screeningItem = "parapet.console.screening-key";

export function loadSession(): Session | null {
  try {
    const s = JSON.parse(sessionStorage.getItem(sessionItem) ?? "null") as Session | null;
    return s && typeof s.key === "string" ? s : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) sessionStorage.setItem(sessionItem, JSON.stringify(s));
  else {
    sessionStorage.removeItem(sessionItem);
    sessionStorage.removeItem(screeningItem);
  }
}

/** The optional screening key the playground uses for /v2/guard's spans. */
export const screeningKey = {
  get: () => sessionStorage.getItem(screeningItem) ?? "",
  set: (k: string) => (k ? sessionStorage.setItem(screeningItem, k) : sessionStorage.removeItem(screeningItem)),
};

function bearer(key: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${key}`);
    return next(req);
  };
}

export interface Api {
  policies: Client<typeof PolicyService>;
  drafts: Client<typeof PolicyDraftService>;
  projects: Client<typeof ProjectService>;
  guardrails: Client<typeof CustomGuardrailService>;
  logs: Client<typeof LogService>;
  analytics: Client<typeof AnalyticsService>;
  guard: Client<typeof GuardService>;
  keys: Client<typeof ApiKeyService>;
}

export function apiFor(key: string): Api {
  const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [bearer(key)] });
  return {
    policies: createClient(PolicyService, transport),
    drafts: createClient(PolicyDraftService, transport),
    projects: createClient(ProjectService, transport),
    guardrails: createClient(CustomGuardrailService, transport),
    logs: createClient(LogService, transport),
    analytics: createClient(AnalyticsService, transport),
    guard: createClient(GuardService, transport),
    keys: createClient(ApiKeyService, transport),
  };
}

/** The Guard client with a screening key: /v2/guard refuses platform keys. */
export function screeningGuard(key: string): Client<typeof GuardService> {
  return createClient(GuardService, createConnectTransport({ baseUrl: location.origin, interceptors: [bearer(key)] }));
}

/** Signs in: a key that may list keys is read-write; a read-only key is told apart by its 403. */
export async function signIn(key: string): Promise<Session> {
  try {
    await apiFor(key).keys.listApiKeys({ limit: 1 });
    return { key, readOnly: false };
  } catch (err) {
    const e = ConnectError.from(err);
    if (e.code === Code.PermissionDenied && /read-only/.test(e.rawMessage)) return { key, readOnly: true };
    throw err;
  }
}

export interface Problem {
  title: string;
  detail: string;
}

/** What went wrong in words for people: a 403 names the key kind or scope that is missing. */
export function problemOf(err: unknown): Problem {
  const e = ConnectError.from(err);
  const msg = e.rawMessage;
  switch (e.code) {
    case Code.Unauthenticated:
      return { title: "Not signed in", detail: `The service did not accept this key (${msg}). Sign out and sign in again.` };
    case Code.PermissionDenied:
      if (/read-only/.test(msg))
        return { title: "Read-only key", detail: "This needs a platform key with the read-write scope; the key you signed in with is read-only." };
      if (/screening key, not a platform key/.test(msg))
        return { title: "Screening key needed", detail: "This endpoint takes a screening key (kind: screening), not a platform key." };
      if (/platform key, not a screening key/.test(msg))
        return { title: "Platform key needed", detail: "The console takes a platform key (kind: platform); this is a screening key." };
      return { title: "Not allowed", detail: msg };
    case Code.InvalidArgument:
      return { title: "Invalid input", detail: msg };
    case Code.NotFound:
      return { title: "Not found", detail: msg };
    case Code.FailedPrecondition:
      return { title: "Not possible now", detail: msg };
    case Code.ResourceExhausted:
      return { title: "Too much", detail: msg };
    case Code.DeadlineExceeded:
      return { title: "Timed out", detail: msg };
    case Code.Unavailable:
      return { title: "Service unavailable", detail: msg || "The service could not be reached." };
    default:
      return { title: "Something went wrong", detail: msg || String(err) };
  }
}
