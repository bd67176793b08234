// Keys: list, create with a name (the secret is shown once), rename, revoke (/v1-beta/api-keys).
// Focus stays where the keyboard user is: on the new secret after a create, on the row's
// Rename button after a rename, on the page's status line after a revoke (its row may be gone).
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiKey } from "../../../gen/parapet/v1/api_keys_pb.js";
import { runAction, useAction } from "../actions.js";
import { announce } from "../announce.js";
import type { Api, Problem } from "../api.js";
import type { PageProps } from "../page-props.js";
import { usePageTitle } from "../page-title.js";
import { ActionButton, Empty, ErrorBox, Loading, Table, shortTime, useAsync } from "../ui.js";

const when = (t?: { seconds: bigint }) => (t ? shortTime(new Date(Number(t.seconds) * 1000).toISOString()) : "—");

/** How a key is called in words: its name, or its prefix when it has none. */
const keyLabel = (k: ApiKey) => k.name ?? `${k.prefix}…`;

export function KeysPage({ api, readOnly }: PageProps) {
  usePageTitle("API keys");
  const [showRevoked, setShowRevoked] = useState(false);
  const keys = useAsync(() => api.keys.listApiKeys({ limit: 1000, includeRevoked: showRevoked }), [showRevoked]);
  const [secret, setSecret] = useState("");
  // What the last revoke did, focused once shown: the row and its button may be gone.
  const [status, setStatus] = useState({ text: "", n: 0 });
  const statusLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (status.text) statusLine.current?.focus();
  }, [status]);
  const { busy, problem, setProblem, run } = useAction();

  const create = (kind: string, scope: string, name: string, done: () => void) =>
    run(async () => {
      const r = await api.keys.createApiKey({ kind, scope: kind === "platform" ? scope : undefined, name: name.trim() || undefined });
      setSecret(r.key);
      setStatus({ text: "", n: status.n + 1 });
      done();
      keys.reload();
    });
  const revoke = (k: ApiKey) => {
    if (!confirm(`Revoke key ${keyLabel(k)} (${k.id})? Clients using it stop working at once.`)) return;
    runAction(async () => {
      await api.keys.revokeApiKey({ keyId: k.id });
      setStatus((s) => ({ text: `Revoked key ${keyLabel(k)} (${k.id}).`, n: s.n + 1 }));
      keys.reload();
    }, setProblem);
  };

  return (
    <section>
      <h1 tabIndex={-1}>API keys</h1>
      {!readOnly && <NewKeyForm busy={busy} onCreate={create} />}
      {secret && <NewKeySecret secret={secret} onDone={() => setSecret("")} onProblem={setProblem} />}
      {problem && <ErrorBox problem={problem} />}
      <p class="status-line" tabIndex={-1} ref={statusLine}>
        {status.text}
      </p>
      <label class="check">
        <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> Show revoked keys
      </label>
      {keys.loading && <Loading what="keys" />}
      {keys.problem && <ErrorBox problem={keys.problem} />}
      {keys.data && keys.data.apiKeys.length === 0 && <Empty>No keys.</Empty>}
      {keys.data && keys.data.apiKeys.length > 0 && (
        <KeyTable keys={keys.data.apiKeys} readOnly={readOnly} onRevoke={revoke} api={api} onRenamed={keys.reload} onProblem={setProblem} />
      )}
    </section>
  );
}

/** The kind of a new key, for a platform key its scope, and an optional name. */
function NewKeyForm({ busy, onCreate }: { busy: boolean; onCreate: (kind: string, scope: string, name: string, done: () => void) => void }) {
  const [kind, setKind] = useState("screening");
  const [scope, setScope] = useState("read-write");
  const [name, setName] = useState("");
  return (
    <form
      class="controls"
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) onCreate(kind, scope, name, () => setName(""));
      }}
    >
      <label>
        Name (optional: what the key is for)
        <input value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} placeholder="checkout service, production" />
      </label>
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
      <ActionButton type="submit" id="create-key" inactive={busy}>
        {busy ? "Creating…" : "Create key"}
      </ActionButton>
    </form>
  );
}

/** A new key's secret, shown this once and focused; a copy that fails says so in the page's error box. */
function NewKeySecret({ secret, onDone, onProblem }: { secret: string; onDone: () => void; onProblem: (p: Problem) => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [secret]);
  return (
    <div class="secret" tabIndex={-1} ref={box}>
      <p>
        <strong>Copy the new key now:</strong> it is shown this once and cannot be read back.
      </p>
      <code>{secret}</code>{" "}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          runAction(async () => {
            await navigator.clipboard?.writeText(secret);
            announce("Copied the key.");
          }, onProblem)
        }
      >
        Copy
      </button>{" "}
      <button
        type="button"
        class="secondary"
        onClick={() => {
          // The box goes away: focus goes back to where keys are made rather than to the top of the page.
          document.getElementById("create-key")?.focus();
          onDone();
        }}
      >
        Done
      </button>
    </div>
  );
}

function KeyTable({
  keys,
  readOnly,
  onRevoke,
  api,
  onRenamed,
  onProblem,
}: {
  keys: ApiKey[];
  readOnly: boolean;
  onRevoke: (k: ApiKey) => void;
  api: Api;
  onRenamed: () => void;
  onProblem: (p: Problem) => void;
}) {
  return (
    <Table columns={["Name", "Key", "Kind", "Scope", "Created", "Last used", "Status"]}>
      {keys.map((k) => (
        <tr key={k.id}>
          <th scope="row">
            <KeyName k={k} readOnly={readOnly} api={api} onRenamed={onRenamed} onProblem={onProblem} />
          </th>
          <td>
            <code>{k.prefix}…</code> <span class="muted">{k.id}</span>
          </td>
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
              <button type="button" class="danger" aria-label={`Revoke ${keyLabel(k)}`} onClick={() => onRevoke(k)}>
                Revoke
              </button>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A key's name, renamed in place: Rename opens a field (Enter saves, Escape cancels), focus returns to Rename. */
function KeyName({ k, readOnly, api, onRenamed, onProblem }: { k: ApiKey; readOnly: boolean; api: Api; onRenamed: () => void; onProblem: (p: Problem) => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(k.name ?? "");
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const back = useRef(false);
  useEffect(() => {
    if (editing) field.current?.focus();
    else if (back.current) renameButton.current?.focus();
    back.current = false;
  }, [editing]);
  const close = () => {
    back.current = true;
    setEditing(false);
  };
  const save = () => {
    if (busy) return;
    setBusy(true);
    runAction(async () => {
      try {
        const r = await api.keys.updateApiKey({ keyId: k.id, name: name.trim() });
        announce(r.apiKey?.name ? `Renamed the key to ${r.apiKey.name}.` : "Removed the key's name.");
        close();
        onRenamed();
      } finally {
        setBusy(false);
      }
    }, onProblem);
  };
  const label = k.name ? <span class="key-name">{k.name}</span> : <span class="muted">unnamed</span>;
  if (!editing) {
    return (
      <>
        {label}
        {!readOnly && (
          <>
            {" "}
            <button
              type="button"
              class="secondary small"
              ref={renameButton}
              aria-label={`Rename ${keyLabel(k)}`}
              onClick={() => {
                setName(k.name ?? "");
                setEditing(true);
              }}
            >
              Rename
            </button>
          </>
        )}
      </>
    );
  }
  return (
    <form
      class="rename"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") close();
      }}
    >
      <label>
        New name of {keyLabel(k)}
        <input ref={field} value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <ActionButton type="submit" inactive={busy} class="small">
        Save name
      </ActionButton>
      <button type="button" class="secondary small" onClick={close}>
        Cancel
      </button>
    </form>
  );
}
