import { describe, expect, it } from "vitest";
import { detectIpAddress } from "../../../src/screening/detectors/pii/ip-address.js";
import { covered, coveredAtLeast, expectNothing } from "./helpers.js";

describe("pii/ip_address", () => {
  it("finds IPv4 with octet range checks", () => {
    const text = "blocked 192.168.1.10 and 10.0.0.1:8080, not 256.1.1.1 or 1.2.3";
    const d = detectIpAddress(text);
    expect(covered(text, d)).toEqual(["192.168.1.10", "10.0.0.1"]);
    expect(d.level).toBe("l1_confident");
  });

  it("finds IPv6 full, compressed, loopback, mapped and zoned forms", () => {
    const text = "hosts: 2001:0db8:85a3:0000:0000:8a2e:0370:7334, 2001:db8::ff00:42:8329, ::1, ::ffff:1.2.3.4, fe80::1%eth0";
    const d = detectIpAddress(text);
    expect(covered(text, d)).toEqual(["2001:0db8:85a3:0000:0000:8a2e:0370:7334", "2001:db8::ff00:42:8329", "::1", "::ffff:1.2.3.4", "fe80::1%eth0"]);
    expect(d.spans.every((s) => s.level === "l1_confident")).toBe(true);
  });

  it("does not take times, MAC addresses, dates, versions or long dotted ids", () => {
    expectNothing(detectIpAddress("at 12:30:45 on 2024.01.15, MAC 00:1A:2B:3C:4D:5E, OID 1.3.6.1.4.1"));
    expectNothing(detectIpAddress("std::vector and Foo::Bar, :: alone"));
  });

  it("lowers dotted quads that read as versions", () => {
    const text = "upgrade to version 1.2.3.4 or v2.0.0.1";
    const d = detectIpAddress(text);
    expect(coveredAtLeast(text, d, "l2_very_likely")).toEqual([]);
    expect(covered(text, d)).toEqual(["1.2.3.4", "2.0.0.1"]);
  });

  it("keeps UTF-16 offsets past emoji", () => {
    const text = "🚀🚀 сервер 203.0.113.7 🚀";
    expect(covered(text, detectIpAddress(text))).toEqual(["203.0.113.7"]);
  });
});
