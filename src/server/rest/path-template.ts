// google.api.http path templates, the subset the contract uses: literal
// segments and single-segment variables (`{policy_id}` or `{policy_id=*}`).
export interface PathTemplate {
  source: string;
  segments: ({ literal: string } | { variable: string })[];
}

export function parsePathTemplate(source: string): PathTemplate {
  if (!source.startsWith("/")) throw new Error(`path template must start with '/': ${source}`);
  const segments = source
    .slice(1)
    .split("/")
    .map((seg) => {
      const v = /^\{([a-z_][a-z0-9_]*)(=\*)?\}$/.exec(seg);
      if (v) return { variable: v[1] };
      if (seg.includes("{") || seg.includes("*")) throw new Error(`unsupported path template segment '${seg}' in ${source}`);
      return { literal: seg };
    });
  return { source, segments };
}

/** Variables bound by `path`, or null when it does not match. Segments are percent-decoded. */
export function matchPath(template: PathTemplate, pathSegments: string[]): Record<string, string> | null {
  if (pathSegments.length !== template.segments.length) return null;
  const vars: Record<string, string> = {};
  for (let i = 0; i < pathSegments.length; i++) {
    const seg = template.segments[i];
    const got = pathSegments[i];
    if ("literal" in seg) {
      if (seg.literal !== got) return null;
    } else {
      if (got === "") return null;
      try {
        vars[seg.variable] = decodeURIComponent(got);
      } catch {
        return null;
      }
    }
  }
  return vars;
}
