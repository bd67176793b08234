// Debian's Chromium for the console's browser tests (docs/console.md#tests): headless, driven by
// playwright-core with no browser download, a fresh profile per browser, and what a page did
// wrong (a CSP violation, a script error) collected for the test to assert on.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import axe from "axe-core";
import { chromium, type Page } from "playwright-core";

const chromiumPath = "/usr/bin/chromium";
export const hasChromium = existsSync(chromiumPath);

export interface Browser {
  page: Page;
  /** CSP reports and script errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** A browser on a fresh profile, at 1280 by 900 unless told otherwise. */
export async function openBrowser(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  const dir = await mkdtemp(path.join(tmpdir(), "parapet-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    viewport,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/.test(m.text())) errors.push(m.text());
  });
  return {
    page,
    errors,
    async close() {
      await context.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in at `url` with `key` and waits for the shell. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByLabel("Platform key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core's WCAG 2.0 to 2.2 A and AA rules on the page as it is now. The engine is the installed
 * package's source, evaluated through the DevTools protocol: the console's CSP forbids inline
 * scripts (so addScriptTag would be refused and reported as a violation), and nothing is fetched.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
}

/** Starts recording what the console's live region says, in order (see `said`). */
export async function recordAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    // A route change keeps the document, and with it an earlier recording: one recorder at a time.
    const w = window as unknown as { said: string[]; saidObserver?: MutationObserver };
    w.saidObserver?.disconnect();
    w.said = [];
    const region = document.getElementById("announcer")!;
    w.saidObserver = new MutationObserver(() => {
      const text = region.textContent ?? "";
      if (text) w.said.push(text);
    });
    w.saidObserver.observe(region, { childList: true, subtree: true, characterData: true });
  });
}

/** What the live region said since `recordAnnouncements`. */
export function said(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { said: string[] }).said);
}

/** The focused element, described: tag, accessible-ish name and a few attributes tests look at. */
export function focused(page: Page): Promise<{ tag: string; text: string; label: string | null; className: string } | null> {
  return page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return null;
    return { tag: e.tagName, text: (e.textContent ?? "").trim(), label: e.getAttribute("aria-label"), className: e.className };
  });
}
