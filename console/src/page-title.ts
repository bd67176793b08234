// Each page's document title, so browser tabs, history and screen readers tell pages apart.
import { useEffect } from "preact/hooks";

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — Parapet console`;
  }, [title]);
}
