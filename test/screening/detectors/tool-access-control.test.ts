import { describe, expect, it } from "vitest";
import { detectToolAccessControl } from "../../../src/screening/detectors/tool-access-control.js";
import { expectNothing } from "./helpers.js";

describe("tool_access_control", () => {
  it("deny list: flags listed names", () => {
    const cfg = { tool_access_action: "deny" as const, tool_access_list: ["delete_user", "send_email"] };
    const d = detectToolAccessControl("send_email", cfg);
    expect(d).toEqual({ level: "l1_confident", spans: [{ start: 0, end: 10, level: "l1_confident", labels: ["send_email"] }] });
    expectNothing(detectToolAccessControl("get_weather", cfg));
  });

  it("allow list: flags names not in the list", () => {
    const cfg = { tool_access_action: "allow" as const, tool_access_list: ["get_weather"] };
    expect(detectToolAccessControl("delete_user", cfg).level).toBe("l1_confident");
    expectNothing(detectToolAccessControl("get_weather", cfg));
  });

  it("compares exactly and case-sensitively, ignoring surrounding whitespace", () => {
    const cfg = { tool_access_action: "deny" as const, tool_access_list: ["send_email "] };
    expect(detectToolAccessControl(" send_email", cfg).level).toBe("l1_confident");
    expectNothing(detectToolAccessControl("Send_Email", cfg));
    expectNothing(detectToolAccessControl("send_email2", cfg));
  });

  it("reports nothing without configuration", () => {
    expectNothing(detectToolAccessControl("anything", {}));
    expectNothing(detectToolAccessControl("anything", { tool_access_action: "deny" }));
  });
});
