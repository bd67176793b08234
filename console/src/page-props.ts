// What the shell (main.tsx) hands every page: its own module so that pages do
// not import the shell, which imports them.
import type { Api } from "./api.js";

export interface PageProps {
  api: Api;
  readOnly: boolean;
  /** The route's path segments after the page name, and its query. */
  params: string[];
  query: URLSearchParams;
}
