// tool_risk/payload: malicious payloads in tool-call arguments. Each string
// value of the arguments is checked against pattern families (shell chaining
// and reverse shells, SQL injection, path traversal, code execution and
// template injection, markup/script, markdown/HTML exfiltration links, SSRF
// targets). A family hit is what makes a value a candidate at all: ids,
// amounts, dates and prose carry no payload syntax, and the character n-gram
// model alone scored some of them high. The model (models/payload.bin, family
// hits as extra features) then grades the candidates, so a family hit in an
// innocent context (a SQL tool running a plain UNION query) can stay low.
//
// Every pattern must stay linear on hostile input (200k characters of quotes,
// dots, backticks or newlines): quantifiers are bounded, and no unbounded
// repetition follows a character that can also start a match.
export interface FamilyHit {
  family: string;
  start: number;
  end: number;
}

/** What follows a command word in a chained command: end, a flag, an argument, or another separator. */
const CMD_END = String.raw`(?=$|[\s;&|)\x60'"%<>])`;
// Commands an injection chains onto an innocent value; plain commands (ls, git, npm) are not in the list.
const HOSTILE_COMMAND = [
  String.raw`rm\s{1,5}-[a-zA-Z]{0,5}[rf]`,
  String.raw`(?:curl|wget|nc|ncat|netcat|telnet|socat)\s{1,5}[^\s|;&]`,
  String.raw`(?:nslookup|dig|host)\s{1,5}[\w-]{1,63}\.[\w-]`,
  String.raw`(?:ba|z|da|k)?sh(?=\s{0,5}(?:$|-[a-z]|[;&)\x60'"%]|\/|<))`,
  String.raw`python[23]?(?:\.\d{1,2})?\s{1,5}-c\b`,
  String.raw`(?:perl|ruby)\s{1,5}-e\b`,
  String.raw`php\s{1,5}-r\b`,
  String.raw`[Pp]ower[Ss]hell\b|pwsh\b`,
  String.raw`cmd(?:\.exe)?\s{1,5}\/[ck]\b`,
  String.raw`cat\s{1,5}\/`,
  String.raw`touch\s{1,5}\/`,
  String.raw`chmod\s{1,5}(?:[+0-7]|-R)`,
  String.raw`(?:shutdown|reboot|halt|poweroff|mkfifo|whoami|uname|crontab|useradd|visudo)` + CMD_END,
  String.raw`id(?=\s{0,5}(?:$|[;&)\x60'"%]))`,
  String.raw`ping\s{1,5}-[cn]\b`,
  String.raw`ls\s{1,5}-[a-zA-Z]{1,5}\s{1,5}\/(?=$|[\s;&|)\x60'"])`,
  String.raw`sleep\s{1,5}\d`,
  String.raw`base64\s{1,5}(?:-d|--decode)\b`,
  String.raw`kill\s{1,5}-9\b`,
  String.raw`echo\s[^\n|;&]{0,100}>{1,2}\s{0,5}[\/~]`,
].join("|");

const FAMILIES: [string, RegExp[]][] = [
  [
    "shell",
    [
      // A separator (or URL-encoded newline) chaining one of the hostile commands above.
      new RegExp(String.raw`(?:[;&|\n\x60]|\$\(|%0[aAdD])[ \t]{0,5}(?:sudo\s{1,5})?(?:${HOSTILE_COMMAND})`, "g"),
      // Command substitution around a command, piping into a shell, reverse shells.
      /\$\(\s{0,3}[a-z_./][^()\n]{0,200}\)/g,
      /\|\s{0,3}(?:sudo\s{1,5})?(?:ba|z|da)?sh(?=\s{0,5}(?:$|-[a-z]|[;&)`'"]))/g,
      />&\s{0,3}\/dev\/(?:tcp|udp)\/|\/dev\/(?:tcp|udp)\/[\w.-]{1,100}\/\d|\s-e\s{1,5}\/bin\/(?:ba)?sh\b|\/bin\/(?:ba)?sh\s{1,5}-i\b/g,
      // Deleting the root, home or a system directory.
      /\brm\s{1,5}-[a-zA-Z]{0,5}(?:r[a-zA-Z]{0,3}f|f[a-zA-Z]{0,3}r)[a-zA-Z]{0,3}\s{1,5}(?:--no-preserve-root\s{1,5})?(?:\/\*?|~\/?|\*|\$HOME|\/(?:bin|boot|etc|home|lib|root|usr|var|sys|dev)\/?)(?=$|[\s;&|)`'"])/g,
      /\b[Pp]ower[Ss]hell(?:\.exe)?\b[^\n]{0,60}\s-[eE](?:nc\w{0,12})?\s{1,5}[A-Za-z0-9+/=]{16}/g,
    ],
  ],
  [
    "sql",
    [
      // Tautologies: ' OR '1'='1, OR 1=1, WHEN (1=1), IF(1=1.
      /(?:\b(?:or|and|when|where|if|having)\b|\()\s{0,5}\(?\s{0,5}(['"]?)(\w{1,20})\1\s{0,5}=\s{0,5}\1\2(?:\1|\b)/gi,
      /\bunion(?:\s|\/\*[^*]{0,20}\*\/){1,5}(?:all\s{1,5}|distinct\s{1,5})?select\b/gi,
      // Stacked statements after a semicolon.
      /;\s{0,5}(?:drop\s{1,5}(?:table|database|schema|user)\b|delete\s{1,5}from\b|insert\s{1,5}into\b|update\s{1,5}\w{1,64}\s{1,5}set\b|truncate\s{1,5}(?:table\s{1,5})?\w|alter\s{1,5}(?:table|user|database)\b|exec(?:ute)?[\s(]|declare\s{1,5}@|create\s{1,5}(?:user|login)\b|shutdown(?=\s{0,5}(?:$|--|;|with\b))|select\s{1,5}(?:@@|\*|\w{1,64}\s{0,5}(?:,|from\b)))/gi,
      // A quote closing the string, then a comment or a new statement.
      /\w['"](?:--|#)(?=\s|$)|['"]\s{0,3}\)\s{0,3}(?:--|#)|['"]\s{0,3};\s{0,3}(?:--|#|\/\*)/g,
      /^\s{0,3}['"]\s{0,3}\)?\s{0,3}(?:;|\b(?:insert|update|delete|drop|select|union|exec|or|and)\b)/gi,
      // Time-based probes and database-specific escapes.
      /(?:\b(?:and|or|select|if|then)\b|[,(;'])\s{0,5}(?:sleep|pg_sleep|benchmark)\s{0,3}\(\s{0,3}\d|\bwaitfor\s{1,5}delay\s{1,5}'/gi,
      /\bxp_cmdshell\b|\bsp_executesql\b|@@version\b|\binformation_schema\.(?:tables|columns)\b|\bload_file\s{0,3}\(|\binto\s{1,5}(?:out|dump)file\b/gi,
    ],
  ],
  [
    "traversal",
    [
      /(?:\.\.[/\\]){3,}/g,
      /(?:\.\.[/\\]){1,8}(?:etc|root|proc|windows|winnt|boot)(?:[/\\]|$)|(?:\.\.[/\\]){1,8}(?:\.ssh|\.aws|\.env\b|\.git[/\\]config)/gi,
      /(?:%2e|\.){2}(?:%2f|%5c)|%2e%2e(?:[/\\]|%2f|%5c)|%252e%252e|\.\.%c0%af|%c0%ae%c0%ae|\.{4}\/\/|\.\.;\//gi,
      /\/etc\/(?:passwd|shadow|sudoers)\b|\.ssh[/\\](?:id_\w{1,20}|authorized_keys)|\.aws[/\\]credentials|\bwin\.ini\b|\bboot\.ini\b|\/proc\/self\/(?:environ|cmdline|mem|fd|maps)\b|system32[/\\]config[/\\]sam\b|\.bash_history\b|\.git-credentials\b|\/var\/run\/secrets\/kubernetes/gi,
      /(?:%00|\\x00|\\0)\.(?:jpe?g|png|gif|pdf|txt|html?)\b/gi,
    ],
  ],
  [
    "code",
    [
      /__import__\s{0,3}\(|(?<![.\w$])(?:eval|exec)\s{0,3}\(|\bsubprocess\.\w{1,20}\s{0,3}\(|\bos\.(?:system|popen|exec\w{0,4}|spawn\w{0,4})\s{0,3}\(|\bpty\.spawn\b/gi,
      /child_process|\b(?:execSync|spawnSync)\s{0,3}\(|Runtime\.getRuntime\s{0,3}\(|\bProcessBuilder\s{0,3}\(|Kernel\.(?:exec|system|spawn)\b|\bIO\.popen\b/g,
      /\$\{jndi:|\$\{\$\{::-[jJ]\}/gi,
      // Template-engine probes and sandbox escapes.
      /\{\{\s{0,3}\d{1,6}\s{0,3}[*+]\s{0,3}\d{1,6}\s{0,3}\}\}|\$\{\s{0,3}\d{1,6}\s{0,3}\*\s{0,3}\d{1,6}\s{0,3}\}|<%=?\s{0,3}\d{1,6}\s{0,3}\*\s{0,3}\d{1,6}\s{0,3}%>|#\{\s{0,3}\d{1,6}\s{0,3}\*\s{0,3}\d{1,6}\s{0,3}\}|\[\[\s{0,3}\d{1,6}\s{0,3}\*\s{0,3}\d{1,6}\s{0,3}\]\]/g,
      /\{\{\s{0,3}(?:config|self)\s{0,3}(?:\}\}|\.items\s{0,3}\(|\|)|\{\{[^{}]{0,40}constructor\.constructor|__(?:globals|subclasses|builtins|mro)__|__class__\.__\w{1,20}__/g,
      /<\?php\b|\b(?:passthru|shell_exec|proc_open|pcntl_exec)\s{0,3}\(|\bsystem\s{0,3}\(\s{0,3}\$_(?:GET|POST|REQUEST)/gi,
      /\b[sS]ystem\s{0,3}\(\s{0,3}["'`$]|[[{;]\s{0,3}system\s{1,5}["'`]/g,
      /\bimport\s{1,5}(?:os|subprocess|socket|pty)\s{0,3}[;,]|!!python\/(?:object|name)\b/g,
    ],
  ],
  [
    "html",
    [
      /<\s{0,3}\/?\s{0,3}script\b/gi,
      // An event handler inside a tag, or after a quote that breaks out of an attribute.
      /<[a-z][^<>]{0,300}?[\s"'/]on[a-z]{3,25}\s{0,3}=/gi,
      /["'`]\s{0,3}on[a-z]{3,25}\s{0,3}=\s{0,3}["'`]?\s{0,3}[\w.]{1,40}\s{0,3}[(`=]/gi,
      /(?:^|["'=(\s>`]|\\x[0-9a-f]{2}|&#\d{1,5};?)\s{0,3}(?:java|vb)script\s{0,3}:(?!\s)/gi,
      /<\s{0,3}(?:iframe|object|embed)\b|\bsrcdoc\s{0,3}=|data:text\/html|data:image\/svg\+xml/gi,
      /document\.(?:cookie|domain|write\s{0,3}\()|(?:window|document)\.location\s{0,3}=|localStorage\.\w|String\.fromCharCode/g,
      /\b(?:alert|prompt|confirm)\s{0,3}[(`]\s{0,3}(?:\d|["'`]|document|window)/g,
      /:\s{0,5}expression\s{0,3}\(/gi,
    ],
  ],
  [
    "exfiltration",
    [
      // An image (loaded without a click) whose URL carries a query: the way data leaves in a rendered answer.
      /!\[[^[\]\n]{0,200}\]\(\s{0,3}<?(?:https?:)?\/\/(?=([^\s)?[\]]{1,500}))\1\?[^\s)=[\]]{0,2000}=/gi,
      /<(?:img|image|video|audio|source|iframe|embed|input)\b[^>]{0,300}?\b(?:src|poster|data)\s{0,3}=\s{0,3}["']?(?:https?:)?\/\/(?=([^"'\s<>?]{1,500}))\1\?[^"'\s<>=]{0,2000}=/gi,
    ],
  ],
  [
    "ssrf",
    [
      /169\.254\.169\.254|\bmetadata\.google\.internal\b|\b100\.100\.100\.200\b|\bfd00:ec2::254\b|\/latest\/meta-data\b|\/computeMetadata\/v1\b/gi,
      /\b(?:file|gopher|dict|ldap|tftp|jar|netdoc|phar|expect):\/\//gi,
      // Loopback and private hosts written so that a naive allow-list does not see them.
      /\bhttps?:\/\/(?:[^/\s@]{1,100}@)?(?:0x[0-9a-f]{8}|\d{8,10}|0{1,4}(?:\.0{1,4}){3}|0\d{1,3}\.\d{1,4}\.\d{1,4}\.\d{1,4}|\[(?:0{0,4}:){2,7}0{0,3}1?\]|\[::ffff:[^\]]{1,40}\])(?=[:/?#]|$)/gi,
    ],
  ],
];

const MAX_HITS = 50;

function scan(value: string, hits: FamilyHit[], only?: Set<string>, whole = false): void {
  for (const [family, patterns] of FAMILIES) {
    if (only && !only.has(family)) continue;
    for (const re of patterns) {
      re.lastIndex = 0;
      for (let m = re.exec(value); m && hits.length < MAX_HITS; m = re.exec(value)) {
        hits.push(whole ? { family, start: 0, end: -1 } : { family, start: m.index, end: m.index + Math.max(1, m[0].length) });
        if (m[0].length === 0) re.lastIndex++;
        // In a decoded view one hit per family is enough: its span is the whole value anyway.
        if (whole) break;
      }
    }
  }
}

// Encoded forms of the same syntax: URL encoding (once or twice), HTML entities, JavaScript escapes.
function decodedViews(value: string): string[] {
  const views: string[] = [];
  if (/%[0-9a-f]{2}/i.test(value)) {
    let v = value;
    for (let i = 0; i < 2 && /%[0-9a-f]{2}/i.test(v); i++) v = v.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    views.push(v);
  }
  if (/&(?:lt|gt|quot|apos|amp|#\d{1,7}|#x[0-9a-f]{1,6});/i.test(value)) {
    const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };
    views.push(
      value.replace(/&(lt|gt|quot|apos|amp|#\d{1,7}|#x[0-9a-f]{1,6});/gi, (_, e: string) => {
        const k = e.toLowerCase();
        if (k in named) return named[k];
        const code = k.startsWith("#x") ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
        return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : "";
      }),
    );
  }
  if (/\\(?:x[0-9a-f]{2}|u[0-9a-f]{4})/i.test(value)) {
    views.push(value.replace(/\\(?:x([0-9a-f]{2})|u([0-9a-f]{4}))/gi, (_, x?: string, u?: string) => String.fromCharCode(parseInt((x ?? u)!, 16))));
  }
  return views;
}

export function familyHits(value: string): FamilyHit[] {
  const hits: FamilyHit[] = [];
  scan(value, hits);
  const views = decodedViews(value);
  if (views.length) {
    const missing = new Set(FAMILIES.map(([f]) => f).filter((f) => !hits.some((h) => h.family === f)));
    for (const v of views) {
      if (!missing.size) break;
      const before = hits.length;
      scan(v, hits, missing, true);
      for (let i = before; i < hits.length; i++) {
        hits[i].end = value.length;
        missing.delete(hits[i].family);
      }
    }
  }
  // Reference-style markdown image: ![x][r] ... [r]: https://host/?q=DATA
  if (!hits.some((h) => h.family === "exfiltration")) {
    let tried = 0;
    for (const m of value.matchAll(/!\[[^[\]\n]{0,200}\]\[([^[\]\n]{1,50})\]/g)) {
      if (++tried > 5) break;
      const label = m[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const def = new RegExp(String.raw`^[ \t]{0,3}\[${label}\]:[ \t]{0,5}<?(?:https?:)?\/\/(?=([^\s?]{1,500}))\1\?\S{0,2000}?=`, "im").exec(value);
      if (def) {
        hits.push({ family: "exfiltration", start: def.index, end: def.index + def[0].length });
        break;
      }
    }
  }
  return hits;
}

export function payloadMarkers(hits: FamilyHit[]): string[] {
  const set = new Set(hits.map((h) => "pf:" + h.family));
  if (set.size >= 2) set.add("pf:multi");
  return [...set];
}
