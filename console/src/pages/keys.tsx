// Keys: list, create (the secret is shown once), revoke (/v1-beta/api-keys).
import { useState } from "preact/hooks";
import { problemOf, type Problem } from "../api.js";
import type { PageProps } from "../page-props.js";
import { Empty, ErrorBox, Loading, Table, shortTime, useAsync } from "../ui.js";

const when = (t?: { seconds: bigint }) => (t ? shortTime(new Date(Number(t.seconds) * 1000).toISOString()) : "—");

export function KeysPage({ api, readOnly }: PageProps) {
  const [showRevoked, setShowRevoked] = useState(false);
  const keys = useAsync(() => api.keys.listApiKeys({ limit: 1000, includeRevoked: showRevoked }), [showRevoked]);
  const [kind, setKind] = useState("screening");
  const [scope, setScope] = useState("read-write");
  const [secret, setSecret] = useState("");
  const [problem, setProblem] = useState<Problem>();
  const [busy, setBusy] = useState(false);

  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const r = await api.keys.createApiKey({ kind, scope: kind === "platform" ? scope : undefined });
      setSecret(r.key);
      keys.reload();
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (id: string) => {
    if (!confirm(`Revoke key ${id}? Clients using it stop working at once.`)) return;
    try {
      await api.keys.revokeApiKey({ keyId: id });
      keys.reload();
    } catch (err) {
      setProblem(problemOf(err));
    }
  };

  return (
    <section>
      <h1 tabIndex={-1}>API keys</h1>
      {!readOnly && (
        <form class="controls" onSubmit={create}>
          <label>
            Kind
            <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
              <option value="screening">screening (POST /v2/guard)</option>
              <option value="platform">platform (management)</option>
            </select>
          </label>
          {kind === "platform" && (
            <label>
              Scope
              <select value={scope} onChange={(e) => setScope(e.currentTarget.value)}>
                <option value="read-write">read-write</option>
                <option value="read-only">read-only</option>
              </select>
            </label>
          )}
          <button type="submit" disabled={busy}>
            Create key
          </button>
        </form>
      )}
      {secret && (
        <div class="secret" role="alert">
          <p>
            <strong>Copy the new key now:</strong> it is shown this once and cannot be read back.
          </p>
          <code>{secret}</code>{" "}
          <button type="button" class="secondary" onClick={() => navigator.clipboard?.writeText(secret)}>
            Copy
          </button>{" "}
          <button type="button" class="secondary" onClick={() => setSecret("")}>
            Done
          </button>
        </div>
      )}
      {problem && <ErrorBox problem={problem} />}
      <label class="check">
        <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> Show revoked keys
      </label>
      {keys.loading && <Loading what="keys" />}
      {keys.problem && <ErrorBox problem={keys.problem} />}
      {keys.data && keys.data.apiKeys.length === 0 && <Empty>No keys.</Empty>}
      {keys.data && keys.data.apiKeys.length > 0 && (
        <Table columns={["Key", "Kind", "Scope", "Created", "Last used", "Status"]}>
          {keys.data.apiKeys.map((k) => (
            <tr key={k.id}>
              <th scope="row">
                <code>{k.prefix}…</code> <span class="muted">{k.id}</span>
              </th>
              <td>{k.kind}</td>
              <td>{k.scope ?? "—"}</td>
              <td>{when(k.createdAt)}</td>
              <td>{when(k.lastUsedAt)}</td>
              <td>
                {k.revokedAt ? (
                  `revoked ${when(k.revokedAt)}`
                ) : readOnly ? (
                  "active"
                ) : (
                  <button type="button" class="danger" onClick={() => revoke(k.id)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
