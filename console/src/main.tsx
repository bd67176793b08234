// The console shell: sign-in, navigation and the hash router. Page routes live
// in the fragment (#/logs) so the service serves one index page for all of them.
import { render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import "uplot/dist/uPlot.min.css";
import "./style.css";
import { useAction } from "./actions.js";
import { Announcer } from "./announce.js";
import { apiFor, loadSession, saveSession, signIn, type Session } from "./api.js";
import type { PageProps } from "./page-props.js";
import { KeysPage } from "./pages/keys.js";
import { LogDetailPage, LogsPage } from "./pages/logs.js";
import { OverviewPage } from "./pages/overview.js";
import { PlaygroundPage } from "./pages/playground.js";
import { ImpactPage, PolicyEditorPage, PoliciesPage } from "./pages/policies.js";
import { ProjectsPage } from "./pages/projects.js";
import { usePageTitle } from "./page-title.js";
import { ActionButton, ErrorBox } from "./ui.js";

const pages: { path: string; label: string }[] = [
  { path: "overview", label: "Overview" },
  { path: "logs", label: "Logs" },
  { path: "policies", label: "Policies" },
  { path: "projects", label: "Projects" },
  { path: "playground", label: "Playground" },
  { path: "impact", label: "Impact preview" },
  { path: "keys", label: "Keys" },
];

function parseHash(): { page: string; params: string[]; query: URLSearchParams } {
  const raw = location.hash.replace(/^#\/?/, "");
  const [p, q = ""] = raw.split("?");
  const [page = "overview", ...params] = p.split("/").filter(Boolean).map(decodeURIComponent);
  return { page, params, query: new URLSearchParams(q) };
}

function useRoute() {
  const [route, setRoute] = useState(parseHash);
  useEffect(() => {
    // A fragment that is not a route ("#main" from a link that escaped its handler) keeps the page.
    const on = () => {
      if (location.hash === "" || location.hash.startsWith("#/")) setRoute(parseHash());
    };
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}

/** `focusField`: after signing out, focus goes to the key field rather than nowhere (the button it was on is gone). */
function SignIn({ onSession, focusField }: { onSession: (s: Session) => void; focusField: boolean }) {
  usePageTitle("Sign in");
  const [key, setKey] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusField) input.current?.focus();
  }, []);
  const { busy, problem, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    if (busy || key.trim() === "") return;
    run(async () => {
      try {
        onSession(await signIn(key.trim()));
      } catch (err) {
        // Refused: back in the field, which the error describes, to type another key.
        input.current?.focus();
        input.current?.select();
        throw err;
      }
    });
  };
  return (
    <main id="main" class="signin">
      <h1>Parapet console</h1>
      <p>Sign in with a platform key of your organization. The key is kept in this tab only (session storage) and sent to this service only.</p>
      <form onSubmit={submit}>
        <label for="key">Platform key</label>
        <input
          id="key"
          ref={input}
          name="key"
          type="password"
          autocomplete="off"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          placeholder="ppk_…"
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "signin-error" : undefined}
        />
        <ActionButton type="submit" inactive={busy || key.trim() === ""}>
          {busy ? "Signing in…" : "Sign in"}
        </ActionButton>
      </form>
      {problem && <ErrorBox problem={problem} id="signin-error" />}
    </main>
  );
}

/** Moves focus to the current page's heading (or its main region): the skip link's target, whatever the route. */
function focusMain(main: HTMLElement | null): void {
  (main?.querySelector<HTMLElement>("h1") ?? main)?.focus();
}

/** `focusFirst`: just signed in, so the first page's heading takes focus from the sign-in button that is gone. */
function Shell({ session, onSignOut, focusFirst }: { session: Session; onSignOut: () => void; focusFirst: boolean }) {
  const route = useRoute();
  const api = useMemo(() => apiFor(session.key), [session.key]);
  const heading = useRef<HTMLDivElement>(null);
  // Keyboard and screen-reader users land on the new page's heading, not at the top of the document;
  // on first load focus stays at the top, where the skip link is.
  const firstRender = useRef(!focusFirst);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    focusMain(heading.current);
  }, [route.page, route.params.join("/")]);
  const props: PageProps = { api, readOnly: session.readOnly, params: route.params, query: route.query };
  let page;
  switch (route.page) {
    case "logs":
      page = route.params[0] ? <LogDetailPage {...props} /> : <LogsPage {...props} />;
      break;
    case "policies":
      page = route.params[0] ? <PolicyEditorPage {...props} /> : <PoliciesPage {...props} />;
      break;
    case "projects":
      page = <ProjectsPage {...props} />;
      break;
    case "playground":
      page = <PlaygroundPage {...props} />;
      break;
    case "impact":
      page = <ImpactPage {...props} />;
      break;
    case "keys":
      page = <KeysPage {...props} />;
      break;
    default:
      page = <OverviewPage {...props} />;
  }
  return (
    <>
      {/* The href is for what a link is; following it would replace the route in the fragment. */}
      <a
        class="skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          focusMain(heading.current);
        }}
      >
        Skip to content
      </a>
      <header>
        <span class="brand">Parapet</span>
        <nav aria-label="Main">
          <ul>
            {pages.map((p) => (
              <li key={p.path}>
                <a href={`#/${p.path}`} aria-current={route.page === p.path || (route.page === "" && p.path === "overview") ? "page" : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{session.readOnly ? "Read-only key" : "Read-write key"}</span>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      {session.readOnly && (
        <p class="banner" role="note">
          Signed in with a read-only key: you can look at everything, changes are disabled.
        </p>
      )}
      <main id="main" ref={heading} tabIndex={-1}>
        {page}
      </main>
    </>
  );
}

function App() {
  const [session, setSession] = useState(loadSession);
  // Whether the session changed in this page (a sign-in or a sign-out) rather than at load.
  const [changed, setChanged] = useState(false);
  return (
    <>
      {session ? (
        <Shell
          session={session}
          focusFirst={changed}
          onSignOut={() => {
            saveSession(null);
            setSession(null);
            setChanged(true);
            location.hash = "";
          }}
        />
      ) : (
        <SignIn
          focusField={changed}
          onSession={(s) => {
            saveSession(s);
            setSession(s);
            setChanged(true);
          }}
        />
      )}
      <Announcer />
    </>
  );
}

const root = document.getElementById("app")!;
// The boot message is plain HTML; Preact would render next to it rather than over it.
root.textContent = "";
render(<App />, root);
