// tool_risk/payload: malicious payloads in tool-call
// arguments. Each string value of the arguments is checked against pattern
// families (shell chaining and reverse shells, SQL injection, path traversal,
// code execution and template injection, HTML/JS, markdown/HTML exfiltration
// links, SSRF targets); the family hits and the value's character n-grams feed
// one logistic head (models/payload.bin), so a family hit in an innocent
// context (a SQL tool running a plain SELECT) does not decide alone.
export interface FamilyHit {
  family: string;
  start: number;
  end: number;
}

const FAMILIES: [string, RegExp][] = [
  [
    "shell",
    /(?:^|[;&|`\n]|\$\(|%0a|%0d)\s*(?:rm\s+-[a-z]*[rf]|curl\b|wget\b|nc\b|ncat\b|bash\b|sh\b|zsh\b|chmod\s+[+0-7]|powershell\b|python[0-9.]*\s+-c|perl\s+-e|cat\s+\/|shutdown\b|reboot\b|mkfifo\b|id\b|whoami\b|uname\b)/gi,
  ],
  ["shell", /\$\([^)]{2,200}\)|`[^`\n]{2,200}`|>&\s*\/dev\/tcp\/|\|\s*(?:ba|z)?sh\b|\s-e\s+\/bin\/(?:ba)?sh|\/bin\/(?:ba)?sh\s+-i/gi],
  [
    "sql",
    /'\s*(?:or|and)\s+'?[\w]+'?\s*=\s*'?[\w]+|\bunion\s+(?:all\s+)?select\b|;\s*(?:drop|delete|insert|update|shutdown|exec|alter|truncate)\b|'\s*(?:--|#|\/\*)|\b(?:sleep|benchmark|pg_sleep)\s*\(\s*\d|waitfor\s+delay|xp_cmdshell|\bor\s+1\s*=\s*1\b/gi,
  ],
  [
    "traversal",
    /(?:\.\.[/\\]){2,}|(?:%2e%2e|\.\.)(?:%2f|%5c)|\.\.\.\.\/\/|\/etc\/(?:passwd|shadow)|\.ssh\/id_|\.aws\/credentials|win\.ini|\/proc\/self\/|system32\\config/gi,
  ],
  [
    "code",
    /__import__\s*\(|\beval\s*\(|\bexec\s*\(|\bsubprocess\b|\bos\.(?:system|popen)|child_process|Runtime\.getRuntime|\$\{jndi:|\{\{[^}]{0,80}(?:__class__|config|self|7\s*\*\s*7)[^}]{0,120}\}\}|__globals__|__subclasses__|\bcompile\s*\(|Kernel\.exec|\bSystem\s*\(/gi,
  ],
  [
    "html",
    /<\s*script\b|\bon(?:error|load|mouseover|click|focus|mouseleave|mouseenter)\s*=|javascript\s*:|<\s*iframe\b|document\.cookie|localStorage\.|data:text\/html|\balert\s*\(|String\.fromCharCode/gi,
  ],
  ["exfiltration", /!\[[^\]]{0,100}\]\(\s*https?:\/\/[^)\s]+\?[^)\s]*=|<img\b[^>]{0,100}src\s*=\s*["']?https?:\/\/[^"'\s>]+\?[^"'\s>]*=/gi],
  ["ssrf", /169\.254\.169\.254|metadata\.google\.internal|\bfile:\/\/\/|\bgopher:\/\/|\bdict:\/\//gi],
];

export function familyHits(value: string): FamilyHit[] {
  const hits: FamilyHit[] = [];
  for (const [family, re] of FAMILIES) {
    re.lastIndex = 0;
    for (let m = re.exec(value); m && hits.length < 50; m = re.exec(value)) {
      hits.push({ family, start: m.index, end: m.index + Math.max(1, m[0].length) });
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return hits;
}

export function payloadMarkers(hits: FamilyHit[]): string[] {
  const set = new Set(hits.map((h) => "pf:" + h.family));
  if (set.size >= 2) set.add("pf:multi");
  return [...set];
}
