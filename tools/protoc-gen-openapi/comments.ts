// Descriptions come from the proto comments, as they read in the .proto file.
import type { AnyDesc, DescFile } from "@bufbuild/protobuf";
import { getComments } from "@bufbuild/protoplugin";

/** The leading comment (or else the trailing one) of an element, without comment markers; undefined when there is none. */
export function commentOf(desc: Exclude<AnyDesc, DescFile>): string | undefined {
  const c = getComments(desc);
  const text = c.leading ?? c.trailing;
  if (text === undefined) return undefined;
  // protoc keeps the single space after "//" on every line.
  const lines = text.split("\n").map((l) => (l.startsWith(" ") ? l.slice(1) : l).trimEnd());
  const joined = lines.join("\n").trim();
  return joined === "" ? undefined : joined;
}

/** The first sentence of a comment, on one line: an operation summary. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  const m = /^(.+?)\.(\s|$)/.exec(flat);
  return m ? m[1] : flat;
}
