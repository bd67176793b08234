// Which client a connection counts against for the per-address cap (src/server/address-cap.ts).
import { describe, expect, it } from "vitest";
import { clientOf } from "../../src/server/address-cap.js";

describe("clientOf", () => {
  it("is the IPv4 address, mapped or not", () => {
    expect(clientOf("192.0.2.7")).toBe("192.0.2.7");
    expect(clientOf("::ffff:192.0.2.7")).toBe("192.0.2.7");
  });

  it("is the /64 of an IPv6 address, however it is written", () => {
    expect(clientOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientOf("::1")).toBe("0:0:0:0::/64");
    expect(clientOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientOf("64:ff9b:1::192.0.2.1")).toBe("64:ff9b:1:0::/64");
  });
});
