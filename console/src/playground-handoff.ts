// A conversation handed to the playground by another page (a logged request's
// "open in playground"), through session storage like the key: both ends of the
// handoff and the turn shape the playground edits.

const handoffItem = "parapet.console.playground";

export interface Turn {
  role: string;
  content: string;
  toolName: string;
  toolArgs: string;
  toolCallId: string;
}

export function turn(role: string, content: string, extra: Partial<Turn> = {}): Turn {
  return { role, content, toolName: extra.toolName ?? "", toolArgs: extra.toolArgs ?? "", toolCallId: extra.toolCallId ?? "" };
}

/** Opens the playground on a conversation (a logged request's). */
export function openInPlayground(turns: { role: string; content: string; toolName?: string; toolArgs?: string; toolCallId?: string }[], projectId: string): void {
  sessionStorage.setItem(handoffItem, JSON.stringify({ turns: turns.map((t) => turn(t.role, t.content, t)), projectId }));
  location.hash = "#/playground";
}

/** The handed-over conversation, once: reading it removes it, so a reload starts from the samples. */
export function takeHandoff(): { turns: Turn[]; projectId: string } | null {
  const raw = sessionStorage.getItem(handoffItem);
  sessionStorage.removeItem(handoffItem);
  try {
    const v = raw ? (JSON.parse(raw) as { turns: Turn[]; projectId: string }) : null;
    return v && Array.isArray(v.turns) ? v : null;
  } catch {
    return null;
  }
}
