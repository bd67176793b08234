// What a screen reader should hear after something happened out of sight: a result that
// arrived, a change saved, a list that finished loading. One polite live region for the whole
// console (rendered by the shell), always in the document: a region inserted together with its
// text is not read reliably, and a region around a whole panel re-reads it on every change.
import { useEffect, useState } from "preact/hooks";

let listener: ((message: string) => void) | undefined;

/** Says `message` through the console's live region; the same words said twice are read twice. */
export function announce(message: string): void {
  listener?.(message);
}

/** The live region: visually hidden, read politely (after what the reader is saying). */
export function Announcer() {
  const [said, setSaid] = useState({ message: "", n: 0 });
  useEffect(() => {
    listener = (message) => setSaid((s) => ({ message, n: s.n + 1 }));
    return () => {
      listener = undefined;
    };
  }, []);
  return (
    <div id="announcer" role="status" aria-live="polite" class="visually-hidden">
      {/* A new node per message: screen readers read added nodes, also when the words repeat. */}
      {said.message && <p key={said.n}>{said.message}</p>}
    </div>
  );
}
