// The per-address connection cap (docs/configuration.md#connections): without
// it one client that opens as many slow connections as the total cap allows
// shuts everyone else out until its deadlines run out, and then does it again.
import net from "node:net";

/**
 * The client a connection counts against: its IPv4 address, or the /64 of its
 * IPv6 address (one host commonly holds a whole /64, so counting single IPv6
 * addresses would not bound it). IPv4-mapped IPv6 addresses count as IPv4.
 */
export function clientOf(address: string | undefined): string {
  if (!address) return "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (net.isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
  return address;
}

function expandIPv6(address: string): string[] {
  const [head, tail = ""] = address.split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  // A trailing dotted IPv4 part ("64:ff9b::192.0.2.1") stands for two groups.
  const groups = (parts: string[]) => parts.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const zeros = address.includes("::") ? Array<string>(Math.max(0, 8 - groups(left) - groups(right))).fill("0") : [];
  return [...left, ...zeros, ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""));
}

/** Open connections per client; `admit` counts a socket until it closes, or refuses it. */
export class AddressCap {
  private readonly open = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** False when the socket's client already holds `limit` connections: the caller closes it. */
  admit(socket: net.Socket): boolean {
    const client = clientOf(socket.remoteAddress);
    const held = this.open.get(client) ?? 0;
    if (held >= this.limit) return false;
    this.open.set(client, held + 1);
    socket.once("close", () => {
      const left = (this.open.get(client) ?? 1) - 1;
      if (left === 0) this.open.delete(client);
      else this.open.set(client, left);
    });
    return true;
  }
}
