// Each page's document title ("Logs — Parapet console"): browser tabs, the history and screen
// readers, which read the title on navigation, tell the pages apart (WCAG 2.4.2).
import { useEffect } from "preact/hooks";

const product = "Parapet console";

/** Titles the document while the calling page is shown; a page that leaves puts the product's name back. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} — ${product}`;
    return () => {
      document.title = product;
    };
  }, [title]);
}
