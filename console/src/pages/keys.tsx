// Keys: list, create (the secret is shown once), revoke (/v1-beta/api-keys).
import { useState } from "preact/hooks";
import type { ApiKey } from "../../../gen/parapet/v1/api_keys_pb.js";
import { runAction, useAction } from "../actions.js";
import type { Problem } from "../api.js";
import type { PageProps } from "../page-props.js";
import { Empty, ErrorBox, Loading, Table, shortTime, useAsync } from "../ui.js";

const when = (t?: { seconds: bigint }) => (t ? shortTime(new Date(Number(t.seconds) * 1000).toISOString()) : "—");

export function KeysPage({ api, readOnly }: PageProps) {
  const [showRevoked, setShowRevoked] = useState(false);
  const keys = useAsync(() => api.keys.listApiKeys({ limit: 1000, includeRevoked: showRevoked }), [showRevoked]);
  const [secret, setSecret] = useState("");
  const { busy, problem, setProblem, run } = useAction();

  const create = (kind: string, scope: string) =>
    run(async () => {
      const r = await api.keys.createApiKey({ kind, scope: kind === "platform" ? scope : undefined });
      setSecret(r.key);
      keys.reload();
    });
  const revoke = (id: string) => {
    if (!confirm(`Revoke key ${id}? Clients using it stop working at once.`)) return;
    runAction(async () => {
      await api.keys.revokeApiKey({ keyId: id });
      keys.reload();
    }, setProblem);
  };

  return (
    <section>
      <h1 tabIndex={-1}>API keys</h1>
      {!readOnly && <NewKeyForm busy={busy} onCreate={create} />}
      {secret && <NewKeySecret secret={secret} onDone={() => setSecret("")} onProblem={setProblem} />}
      {problem && <ErrorBox problem={problem} />}
      <label class="check">
        <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> Show revoked keys
      </label>
      {keys.loading && <Loading what="keys" />}
      {keys.problem && <ErrorBox problem={keys.problem} />}
      {keys.data && keys.data.apiKeys.length === 0 && <Empty>No keys.</Empty>}
      {keys.data && keys.data.apiKeys.length > 0 && <KeyTable keys={keys.data.apiKeys} readOnly={readOnly} onRevoke={revoke} />}
    </section>
  );
}

/** The kind of a new key, and for a platform key its scope. */
function NewKeyForm({ busy, onCreate }: { busy: boolean; onCreate: (kind: string, scope: string) => void }) {
  const [kind, setKind] = useState("screening");
  const [scope, setScope] = useState("read-write");
  return (
    <form
      class="controls"
      onSubmit={(e) => {
        e.preventDefault();
        onCreate(kind, scope);
      }}
    >
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
  );
}

/** A new key's secret, shown this once; a copy that fails says so in the page's error box. */
function NewKeySecret({ secret, onDone, onProblem }: { secret: string; onDone: () => void; onProblem: (p: Problem) => void }) {
  return (
    <div class="secret" role="alert">
      <p>
        <strong>Copy the new key now:</strong> it is shown this once and cannot be read back.
      </p>
      <code>{secret}</code>{" "}
      <button type="button" class="secondary" onClick={() => runAction(async () => navigator.clipboard?.writeText(secret), onProblem)}>
        Copy
      </button>{" "}
      <button type="button" class="secondary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function KeyTable({ keys, readOnly, onRevoke }: { keys: ApiKey[]; readOnly: boolean; onRevoke: (id: string) => void }) {
  return (
    <Table columns={["Key", "Kind", "Scope", "Created", "Last used", "Status"]}>
      {keys.map((k) => (
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
              <button type="button" class="danger" onClick={() => onRevoke(k.id)}>
                Revoke
              </button>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}
