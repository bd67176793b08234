// A streamed answer restored on the fly (docs/sanitize.md#streaming): the
// gateway sanitized the conversation reversibly, the model answers with
// placeholders, and GuardStream's verdicts give the answer back with the
// originals, also when a placeholder is split across deltas.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreamRestorer } from "../../src/sanitize/stream-restorer.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { driver, failure, streamProtocols, type V } from "../guard/stream/support.js";
import { guard, startVaultServer } from "./support.js";

describe("StreamRestorer", () => {
  const map = new Map([
    ["[EMAIL_1]", "ana@example.org"],
    ["[NAME_1]", "Ana Lima"],
  ]);
  const run = (deltas: string[], releases: number[], finalAt = deltas.length) => {
    const r = new StreamRestorer(map, 1_000_000);
    const out: string[] = [];
    deltas.forEach((d, i) => {
      r.append(d);
      if (i + 1 === finalAt) out.push(r.release(Infinity, true).text);
      else out.push(r.release(releases[i]).text);
    });
    return out;
  };

  it("holds back a placeholder the release offset cuts and gives it whole later", () => {
    const out = run(["Write to [EMA", "IL_1] today, ", "[NAME_1]."], [13, 22], 3);
    expect(out[0]).toBe("Write to ");
    expect(out.join("")).toBe("Write to ana@example.org today, Ana Lima.");
  });

  it("never gives text past the release offset, counts code points, leaves unknown placeholders", () => {
    const r = new StreamRestorer(map, 1_000_000);
    r.append("😀 [NAME_1] and [CARD_9] and more");
    const first = r.release(3);
    expect(first).toEqual({ text: "😀 ", offset: 2 });
    const second = r.release(26);
    expect(second.text).toBe("Ana Lima and [CARD_9] an");
    expect(second.offset).toBe(26);
    expect(r.release(26)).toEqual({ text: "", offset: 26 });
  });

  it("a '[' that cannot become a placeholder is not held", () => {
    const r = new StreamRestorer(map, 1_000_000);
    r.append("see [1] and [a lower");
    expect(r.release(20).text).toBe("see [1] and [a lower");
  });

  it("hostile: a long run of '[' and capitals is held at most one placeholder's length", () => {
    const r = new StreamRestorer(map, 1_000_000);
    const text = "[" + "A".repeat(10_000);
    r.append(text);
    expect(r.release(text.length).text.length).toBe(text.length);
  });
});

describe("GuardStream with restore_vault_id", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startVaultServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  async function sanitized(): Promise<{ vaultId: string; placeholder: string }> {
    const res = await guard(server, { messages: [{ role: "user", content: "Please email ana.lima@example.org about the invoice." }], sanitize: { mode: "reversible" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const placeholder = /\[EMAIL_\d+\]/.exec(res.body.sanitized_messages[0].content)![0];
    return { vaultId: res.body.vault_id, placeholder };
  }

  for (const protocol of streamProtocols) {
    it(`${protocol}: the verdicts' pieces join to the restored answer, a placeholder split across deltas included`, async () => {
      const { vaultId, placeholder } = await sanitized();
      const answer = `Done: I wrote to ${placeholder} and copied ${placeholder} on the reply. Anything else?`;
      const cut = answer.indexOf(placeholder) + 4;
      const deltas = [answer.slice(0, cut), answer.slice(cut, cut + 30), answer.slice(cut + 30)];
      const d = driver(server, protocol);
      const verdicts: V[] = [await d.open({ messages: [{ role: "user", content: "Please email [EMAIL_1] about the invoice." }], restoreVaultId: vaultId })];
      for (const t of deltas) verdicts.push(await d.delta(t));
      verdicts.push(await d.close());
      const pieces = verdicts.map((v) => v.restored_text ?? "");
      expect(pieces.join("")).toBe(answer.replaceAll(placeholder, "ana.lima@example.org"));
      for (const v of verdicts) expect(v.restored_offset ?? 0).toBeLessThanOrEqual(v.released_offset);
      // Nothing of a placeholder is given before it is whole.
      for (const p of pieces) expect(p).not.toMatch(/\[EMA?I?L?_?\d*$/);
    });
  }

  it("another organization's vault id, an unknown one and a malformed one are refused at open", async () => {
    const { vaultId } = await sanitized();
    const other = await server.newOrg();
    const open = (key: string, id: string) => driver(server, "rest", key).open({ messages: [{ role: "user", content: "hi" }], restoreVaultId: id });
    expect((await failure(open(other.screeningKey, vaultId))).status).toBe(404);
    expect((await failure(open(server.screeningKey, "vlt_" + "x".repeat(32)))).status).toBe(404);
    expect((await failure(open(server.screeningKey, "not-a-vault-id"))).status).toBe(422);
  });

  it("a stream without restore_vault_id carries no restored fields", async () => {
    const d = driver(server, "rest");
    const v = await d.open({ messages: [{ role: "user", content: "hi" }] });
    expect(v.restored_text).toBeUndefined();
    expect((await d.delta("Hello there, how can I help?")).restored_text).toBeUndefined();
    await d.close();
  });
});

describe("GuardStream with restore_vault_id, no vault key configured", () => {
  it("is refused at open with feature_disabled naming the setting", async () => {
    const server = await startTestServer();
    try {
      const e = await failure(driver(server, "rest").open({ messages: [{ role: "user", content: "hi" }], restoreVaultId: "vlt_" + "a".repeat(32) }));
      expect(e.status).toBe(403);
      expect(e.error).toBe("feature_disabled");
      expect(e.message).toContain("PARAPET_VAULT_KEY");
    } finally {
      await server.close();
    }
  });
});
