// pii/ip_address: IPv4 dotted quads and IPv6 in full, compressed and
// IPv4-mapped forms (`::1`, `::ffff:1.2.3.4`, `fe80::1%eth0`). Candidates come
// from two regexes whose repeated groups end in a separator the group's body
// cannot contain (".", ":"), so they cannot backtrack catastrophically; every
// candidate is then validated by node:net isIP, which rejects out-of-range
// octets and leading zeros.
//
// Levels: a valid address -> l1. Lowered to l4 when a version word stands
// right before a dotted quad ("version 1.2.3.4", "v1.2.3.4"), and for short
// compressed IPv6 such as `a::b`, which also reads as C++ scope syntax.
import { isIP } from "node:net";
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import { type Finding, before, overlapTest, toDetection } from "../findings.js";

// No digit or dot before, no digit or ".digit" after: "1.2.3.4.5" (an OID or
// a long version) is not an address.
const IPV4 = /(?<![\d.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?!\d|\.\d)/g;
const IPV6 = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})?(?:%[0-9A-Za-z_.-]{1,32})?(?![\w:])/g;
const VERSION_CONTEXT = /(?:\bv|\bversion\s*|\bver\.?\s*|\brelease\s*|\bbuild\s*|\bupgrade(?:d)? to\s*)$/;

function findIpAddresses(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(IPV6)) {
    let candidate = m[0];
    const start = m.index;
    // A trailing ":" belongs to the sentence ("the host is ::1: ...") unless it is "::".
    if (candidate.endsWith(":") && !candidate.endsWith("::")) candidate = candidate.slice(0, -1);
    const zone = candidate.indexOf("%");
    const bare = zone === -1 ? candidate : candidate.slice(0, zone);
    if (!/[0-9A-Fa-f]/.test(bare)) continue; // "::" alone, or "a:b:" punctuation
    if (isIP(bare) !== 6) continue;
    const groups = bare.split(":").filter((g) => g.length > 0).length;
    const embeddedV4 = bare.includes(".");
    const full = !bare.includes("::");
    const wellKnown = /^(?:::1|::ffff:|fe80:|2001:|2002:|fc|fd|ff0)/i.test(bare);
    const level = full || embeddedV4 || groups >= 3 || wellKnown || bare === "::1" ? "l1_confident" : "l4_less_likely";
    out.push({ start, end: start + candidate.length, level, labels: ["ipv6"] });
  }
  // IPv4 matches never overlap one another: only the IPv6 ones can cover them.
  const inIpv6 = overlapTest(out);
  for (const m of text.matchAll(IPV4)) {
    const start = m.index;
    if (isIP(m[0]) !== 4) continue;
    // The tail of an IPv4-mapped IPv6 address is already covered.
    if (inIpv6(start, start + m[0].length)) continue;
    // "v1.2.3.4" and "version 1.2.3.4" are more likely versions than hosts.
    const ctx = before(text, start, 20);
    const level = VERSION_CONTEXT.test(ctx) ? "l4_less_likely" : "l1_confident";
    out.push({ start, end: start + m[0].length, level, labels: ["ipv4"] });
  }
  return out;
}

export function detectIpAddress(text: string): Detection {
  return toDetection(findIpAddresses(text));
}

export const ipAddress = piiDetector("pii/ip_address", "IP_ADDRESS", detectIpAddress);
