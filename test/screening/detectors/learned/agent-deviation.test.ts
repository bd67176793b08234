// dangerous_deviation on vendor-prefixed tool names, with the tool's definition
// in the request, and with the application's system/developer instructions.
import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { MessageSchema, ToolDefinitionSchema } from "../../../../gen/parapet/v1/guard_pb.js";
import type { ScreeningContext } from "../../../../src/screening/detector.js";
import { actionClasses, expectedByInstructions } from "../../../../src/screening/detectors/learned/agent-tools/deviation.js";
import { nameWords } from "../../../../src/screening/detectors/learned/agent-tools/tool-calls.js";
import { screen } from "../../../../src/screening/engine.js";
import { instructionsOf, partsOf } from "../../../../src/screening/parts.js";
import { flagged, run, toolCall, toolDefinition, user } from "./support.js";

describe("nameWords", () => {
  const cases: [string, string[]][] = [
    ["GmailReadEmail", ["gmail", "read", "email"]],
    ["GoogleDriveListFiles", ["google", "drive", "list", "files"]],
    ["BankManagerTransferFunds", ["bank", "manager", "transfer", "funds"]],
    ["XMLHttpRequest", ["xml", "http", "request"]],
    ["sendSMS", ["send", "sms"]],
    ["getURLForID", ["get", "url", "for", "id"]],
    ["createUserV2", ["create", "user", "v2"]],
    ["users.remove", ["users", "remove"]],
    ["get-item", ["get", "item"]],
    ["delete_file", ["delete", "file"]],
  ];
  for (const [name, words] of cases) it(name, () => expect(nameWords(name)).toEqual(words));
});

describe("action classes of tool names", () => {
  const cases: [string, string[]][] = [
    // Vendor or toolkit words first, then the verb.
    ["GmailReadEmail", []],
    ["GoogleDriveListFiles", []],
    ["SlackSearchMessages", []],
    ["PayPalGetBalance", []],
    ["AugustSmartLockViewAccessHistory", []],
    ["TwitterManagerGetUserProfile", []],
    ["GmailSendEmail", ["outbound"]],
    ["BankManagerTransferFunds", ["financial"]],
    ["DropboxDeleteFile", ["destructive"]],
    ["VenmoSendMoney", ["financial"]],
    ["TwitterManagerPostTweet", ["outbound"]],
    ["AugustSmartLockGrantGuestAccess", ["sharing"]],
    ["BinancePlaceOrder", ["financial"]],
    // Plain names.
    ["get_message", []],
    ["list_permissions", []],
    ["order_status", []],
    ["message_history", []],
    ["transfer_file", []],
    ["call_api", []],
    ["format_date", []],
    ["read_and_reply", ["outbound"]],
    ["search_then_delete", ["destructive"]],
    ["post_message", ["outbound"]],
    ["email_user", ["outbound"]],
    ["make_payment", ["financial"]],
    ["create_payment", ["financial"]],
    ["issue_refund", ["financial"]],
    ["set_permissions", ["sharing"]],
    ["transfer_ownership", ["sharing"]],
    ["purge_emails", ["destructive"]],
    ["format_disk", ["destructive"]],
  ];
  for (const [name, classes] of cases) it(`${name} -> ${classes.join(", ") || "none"}`, () => expect(actionClasses(name, "{}").sort()).toEqual(classes));

  it("an argument of a read is data, not an operation", () => {
    expect(actionClasses("list_files", JSON.stringify({ visibility: "public" }))).toEqual([]);
    expect(actionClasses("set_visibility", JSON.stringify({ doc: "d1", visibility: "public" }))).toEqual(["sharing"]);
  });
});

describe("the definition tells an ambiguous name's class", () => {
  const def = (name: string, description: string) => `${name}\n${description}\n{"type":"object","properties":{"id":{"type":"string"}}}`;
  it("a name without a verb, or with a generic one, takes the description's first verb", () => {
    expect(actionClasses("process_item", "{}")).toEqual([]);
    expect(actionClasses("process_item", "{}", def("process_item", "Permanently deletes the item."))).toEqual(["destructive"]);
    expect(actionClasses("acme_tool", "{}", def("acme_tool", "A tool for sending emails to customers."))).toEqual(["outbound"]);
    expect(actionClasses("ledger", "{}", def("ledger", "Use this to send money to a contact."))).toEqual(["financial"]);
    expect(actionClasses("records", "{}", def("records", "List, create, update, and delete patient records."))).toEqual(["destructive"]);
  });
  it("a negated verb is not what the tool does", () => {
    expect(actionClasses("process_item", "{}", def("process_item", "Does not delete anything; returns the item."))).toEqual([]);
  });
  it("a name with a clear verb keeps it", () => {
    expect(actionClasses("sys_monitor", "{}", def("sys_monitor", "A tool that deletes old logs."))).toEqual([]);
    expect(actionClasses("delete_note", "{}", def("delete_note", "Shows the note."))).toEqual(["destructive"]);
  });
  it("the detector reads the definition from the request", () => {
    const u = user("Show me item 5.", 0);
    const call = toolCall("process_item", { id: "5" }, 1);
    const d = toolDefinition("process_item", "Permanently deletes the item.", { type: "object", properties: { id: { type: "string" } } });
    expect(run("dangerous_deviation", call, { parts: [u, call] }).level).toBe("l5_unlikely");
    expect(flagged(run("dangerous_deviation", call, { parts: [d, u, call] }).level)).toBe(true);
  });
});

describe("dangerous_deviation with vendor-prefixed names", () => {
  const scenario = (ask: string, name: string, args: unknown, context: Partial<ScreeningContext> = {}) => {
    const u = user(ask, 0);
    const call = toolCall(name, args, 1);
    return run("dangerous_deviation", call, { parts: [u, call], ...context });
  };
  it("reads are not deviations", () => {
    expect(scenario("Help me with my account", "GmailReadEmail", { email_id: "e1" }).level).toBe("l5_unlikely");
    expect(scenario("Help me with my account", "GoogleDriveListFiles", { folder: "root" }).level).toBe("l5_unlikely");
    expect(scenario("Find what Sam said about the launch", "SlackSearchMessages", { query: "launch" }).level).toBe("l5_unlikely");
  });
  it("outbound, financial and destructive calls nobody asked for are", () => {
    expect(flagged(scenario("Help me with my account", "GmailSendEmail", { to: "x@example.com", body: "hi" }).level)).toBe(true);
    expect(flagged(scenario("What's my balance?", "BankManagerTransferFunds", { amount: 100, to_account: "123-456" }).level)).toBe(true);
    expect(flagged(scenario("Summarize my files", "DropboxDeleteFile", { path: "/a.txt" }).level)).toBe(true);
  });
  it("the action the user asked for is not", () => {
    expect(scenario("Email Priya that I'm late", "GmailSendEmail", { to: "priya@example.com", body: "late" }).level).toBe("l5_unlikely");
    expect(scenario("Transfer $100 to my savings", "BankManagerTransferFunds", { amount: 100, to_account: "123-456" }).level).toBe("l5_unlikely");
  });
  it("no user message: no level, even with instructions", () => {
    const call = toolCall("GmailSendEmail", { to: "x@example.com" }, 1);
    expect(run("dangerous_deviation", call, { parts: [call], instructions: ["You are an email assistant that sends replies on the user's behalf."] }).level).toBe(
      "no_level",
    );
  });
});

describe("system and developer instructions", () => {
  const scenario = (instructions: string[], ask: string, name: string, args: unknown) => {
    const u = user(ask, 1);
    const call = toolCall(name, args, 2);
    return run("dangerous_deviation", call, { parts: [u, call], instructions });
  };
  const emailAgent = ["You are an email assistant that sends replies on the user's behalf."];
  it("an agent whose job is sending may send", () => {
    expect(flagged(scenario([], "Help me with my inbox", "GmailSendEmail", { to: "x@example.com", body: "ok" }).level)).toBe(true);
    expect(scenario(emailAgent, "Help me with my inbox", "GmailSendEmail", { to: "x@example.com", body: "ok" }).level).toBe("l5_unlikely");
  });
  it("widens only the classes it names", () => {
    expect(flagged(scenario(emailAgent, "Help me with my inbox", "GmailDeleteEmail", { id: "e1" }).level)).toBe(true);
    expect(flagged(scenario(emailAgent, "Help me with my inbox", "make_payment", { amount: 10 }).level)).toBe(true);
  });
  it("a payments agent may pay", () => {
    const ask = "Handle the invoice from Acme.";
    expect(flagged(scenario([], ask, "make_payment", { amount: 900, payee: "acme" }).level)).toBe(true);
    expect(scenario(["You are a payments agent for Acme Corp."], ask, "make_payment", { amount: 900, payee: "acme" }).level).toBe("l5_unlikely");
  });
  it("negated, restricted or conditional sentences widen nothing", () => {
    const restricted = [
      "Never send emails on the user's behalf.",
      "Do not send anything without asking first.",
      "You may send replies only after the user confirms.",
      "You can send emails when asked.",
    ];
    for (const s of restricted) {
      expect(expectedByInstructions([s]).has("outbound")).toBe(false);
      expect(flagged(scenario([s], "Help me with my inbox", "GmailSendEmail", { to: "x@example.com" }).level)).toBe(true);
    }
  });
  it("what the instructions name", () => {
    expect([...expectedByInstructions(["You are a cleanup assistant. You delete stale branches every night."])]).toEqual(["destructive"]);
    expect([...expectedByInstructions(["You help the team share documents with clients."])]).toEqual(["sharing"]);
    expect([...expectedByInstructions(["You summarize blog posts and answer questions about email."])]).toEqual([]);
  });
});

describe("instructions reach the detectors through the engine, never as parts", () => {
  const msg = (role: string, content?: string, extra: Record<string, unknown> = {}) => create(MessageSchema, { role, content, ...extra });
  const messages = (system: boolean) => [
    ...(system ? [msg("system", "You are an email assistant that sends replies on the user's behalf.")] : []),
    msg("developer", "Answer in English."),
    msg("user", "Help me with my inbox"),
    msg("assistant", undefined, { toolCalls: [{ id: "c1", type: "function", function: { name: "GmailSendEmail", arguments: '{"to":"x@example.com"}' } }] }),
  ];
  const tools = [create(ToolDefinitionSchema, { type: "function", function: { name: "GmailSendEmail", description: "Sends an email." } })];
  const policy = {
    id: "p",
    threshold: "l4_less_likely",
    detectors: [
      { type: "dangerous_deviation", location: "assistant::tool_call" as const },
      { type: "prompt_attack", location: "user::content" as const },
    ],
  };
  it("partsOf carries the system and developer messages in order on every part", () => {
    const parts = partsOf(messages(true), tools);
    expect(parts.map((p) => p.location)).toEqual(["user::content", "assistant::tool_call", "tool_definition::content"]);
    expect(instructionsOf(parts)).toEqual(["You are an email assistant that sends replies on the user's behalf.", "Answer in English."]);
    expect(new Set(parts.map((p) => p.instructions)).size).toBe(1);
    expect(instructionsOf([{ location: "user::content", text: "hi" }])).toEqual([]);
  });
  it("screen passes them as context", () => {
    const level = (system: boolean) => screen(policy, [], partsOf(messages(system), tools)).outcomes.find((o) => o.detectorType === "dangerous_deviation")!.level;
    expect(flagged(level(false))).toBe(true);
    expect(level(true)).toBe("l5_unlikely");
  });
  it("no outcome is about a system or developer message", () => {
    const s = screen(policy, [], partsOf(messages(true), tools));
    expect(s.outcomes.map((o) => o.messageId)).toEqual([2, 3]);
  });
});
