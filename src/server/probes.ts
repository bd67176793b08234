// Kubernetes-style probes; no auth, no request log.
//   /livez    the process is serving requests
//   /readyz   the screening path is warm, storage is reachable and the service is not shutting down:
//             during the warm-up after start (docs/operations.md#warm-up) and from SIGTERM on it fails
//             while requests are still served (docs/operations.md#shutdown); it fails too once the
//             model thread stopped restarting (docs/operations.md#probes-no-authentication)
//   /startupz start-up (storage open, bootstrap) has finished
export interface ProbeState {
  started: boolean;
  /** The start-up warm-up is running (docs/operations.md#warm-up): started, not ready yet. */
  warming: boolean;
  shuttingDown: boolean;
  ping: () => Promise<void>;
  /** Why the service cannot screen as configured although it runs (the model thread stopped restarting), if it cannot. */
  unable?: () => string | undefined;
}

export const probePaths = new Set(["/livez", "/readyz", "/startupz"]);

export async function probe(path: string, state: ProbeState): Promise<{ status: number; body: Record<string, unknown> }> {
  if (path === "/livez") return { status: 200, body: { status: "ok" } };
  if (path === "/startupz") {
    return state.started ? { status: 200, body: { status: "ok" } } : { status: 503, body: { status: "starting" } };
  }
  if (state.shuttingDown) return { status: 503, body: { status: "shutting_down" } };
  if (!state.started) return { status: 503, body: { status: "starting" } };
  if (state.warming) return { status: 503, body: { status: "warming_up" } };
  const unable = state.unable?.();
  if (unable) return { status: 503, body: { status: unable } };
  try {
    await state.ping();
    return { status: 200, body: { status: "ok" } };
  } catch {
    return { status: 503, body: { status: "storage_unreachable" } };
  }
}
