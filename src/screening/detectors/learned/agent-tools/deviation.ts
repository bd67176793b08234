// dangerous_deviation: a tool call whose effect goes beyond what the user
// asked for. The call gets action classes (destructive, financial, outbound
// communication, sharing) from its name, its operation-bearing arguments and a
// few argument values (visibility "public", share_with "anyone"); when the name
// says nothing (process_item), from the first verb of the tool's description.
// The user's messages before the call give the classes they ask for; the
// application's system/developer instructions add the classes they explicitly
// make the agent's job. A class nobody asked for is a deviation; its level
// depends on whether the request was read-only (summarize, find, explain...).
import { crudOfWord } from "./crud-lexicon.js";
import { argValues, nameWords } from "./tool-calls.js";

export type ActionClass = "destructive" | "financial" | "outbound" | "sharing";
const ACTION_CLASSES: ActionClass[] = ["destructive", "financial", "outbound", "sharing"];

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Verbs that name an action of their class wherever they stand in a name. */
const ACTION_VERBS: Record<ActionClass, Set<string>> = {
  destructive: words(
    "delete remove drop destroy purge erase wipe rm rmdir truncate terminate kill uninstall cancel revoke shred nuke trash unlink deregister deactivate expunge flush prune clear discard",
  ),
  financial: words("pay purchase buy charge refund withdraw deposit wire checkout sell invest payout remit donate transfer trade"),
  outbound: words("send publish reply forward notify broadcast announce tweet retweet dm"),
  sharing: words("share grant invite expose"),
};

/**
 * Words that are nouns as often as verbs ("GmailReadEmail", "get_order"): they
 * set the class only when no other verb is in the name ("email_user",
 * "post_message", "order_pizza"), or as the object of a creating verb.
 */
const NOUN_VERBS: Record<ActionClass, Set<string>> = {
  destructive: new Set(),
  financial: words("order bill tip"),
  outbound: words("email mail message sms post comment call"),
  sharing: new Set(),
};

/** Objects that make a creating verb consequential: create_payment, add_comment, update_permissions. */
const OBJECTS: Record<ActionClass, Set<string>> = {
  destructive: new Set(),
  financial: words(
    "payment payments transfer transfers transaction transactions money funds fund cash crypto bitcoin btc eth order orders purchase trade trades refund payout bill",
  ),
  outbound: words(
    "email emails mail message messages sms tweet tweets post posts comment comments reply replies notification notifications announcement call calls webhook",
  ),
  sharing: words("permission permissions access acl visibility collaborator collaborators public link links sharing"),
};

/** Verbs whose object decides the effect: create_payment is financial, create_note is not. */
const CREATING = words(
  "create add make new submit place issue initiate execute process perform run do handle manage start complete confirm approve authorize schedule request post send write leave",
);
/** Verbs that change who can see something when their object is a permission: update_permissions, set_visibility. */
const ACCESS_CHANGING = words("update set change modify edit grant add manage configure enable toggle give assign apply");
/** A name whose verb is one of these says nothing about its effect: the description may. */
const GENERIC = words("process handle manage run execute perform do apply invoke operate use call trigger action");

/** Reads and previews: get_message, list_permissions, search_posts, draft_email act on nothing. */
const READ_VERBS = words(
  "get read list search find fetch query show view lookup look check count summarize summarise describe draft preview compose retrieve download browse inspect load " +
    "export display print scan monitor poll analyze analyse audit verify validate peek receive pull compare diff resolve translate convert calculate estimate locate " +
    "track detect identify recommend extract explore discover review watch see obtain",
);
/** Without an unambiguous verb, a read-like noun says the name reads: order_status, message_history, account_balance. */
const READ_NOUNS = words("status history details detail info information summary stats statistics logs balance balances feed inbox report reports metadata");

/** Words of the CRUD lexicon that are nouns in tool names, not verbs. */
const NOT_VERBS = words("status history info details log record label tag new head tail seed plant store star pin flag test cat ls whoami book");
const OTHER_VERBS = words(
  "format organize archive mark move label tag upload install deploy start stop restart lock unlock open close play pause reserve control set turn adjust navigate generate " +
    "apply run execute process handle manage use schedule edit update modify create add make submit place issue initiate perform complete confirm approve authorize " +
    "request write leave enable disable toggle sync assign configure change rename save sort filter upload follow unfollow like block mute join leave register",
);

/** Vendor names that camel case splits into verbs: PayPal, SendGrid, MailChimp, PostHog, GooglePay. */
const VENDOR_PAIRS = words(
  "pay_pal send_grid send_bird mail_chimp mail_gun post_hog post_mark google_pay apple_pay amazon_pay samsung_pay cash_app pay_u pay_tm we_pay shop_pay",
);
const MONEY = words("money funds fund cash payment payments crypto bitcoin btc eth usdc usdt tokens");
const NOT_MONEY_TRANSFER = words("file files ownership owner call data domain repo repository chat conversation document documents folder project license number ticket");
const TECHNICAL_CALL = words("api function tool endpoint service method model llm lambda rpc graphql rest http url");
const CONNECTORS = words("and then or also");

function isVerb(w: string): boolean {
  if (READ_VERBS.has(w) || OTHER_VERBS.has(w) || GENERIC.has(w)) return true;
  for (const c of ACTION_CLASSES) if (ACTION_VERBS[c].has(w) || NOUN_VERBS[c].has(w)) return true;
  return !!crudOfWord(w) && !NOT_VERBS.has(w);
}
const isNounVerb = (w: string) => ACTION_CLASSES.some((c) => NOUN_VERBS[c].has(w));

function mergeVendors(ws: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    if (i + 1 < ws.length && VENDOR_PAIRS.has(`${ws[i]}_${ws[i + 1]}`)) {
      out.push(ws[i] + ws[i + 1]);
      i++;
    } else out.push(ws[i]);
  }
  return out;
}

/** The verb that says what a name does: the first unambiguous verb (vendor and toolkit words before it are skipped), else the first noun-verb. */
function primaryVerb(ws: string[]): number {
  const strict = ws.findIndex((w) => isVerb(w) && !isNounVerb(w));
  return strict >= 0 ? strict : ws.findIndex(isVerb);
}

/** The class of an action verb in its context: "send money" is financial, "transfer ownership" sharing, "call api" nothing. */
function verbClass(ws: string[], i: number, nounVerbs: boolean): ActionClass | undefined {
  const w = ws[i];
  const next = ws.slice(i + 1, i + 4);
  if (w === "send" && next.some((x) => MONEY.has(x))) return "financial";
  if (w === "transfer" && next.length && NOT_MONEY_TRANSFER.has(next[0])) return next[0] === "ownership" || next[0] === "owner" ? "sharing" : undefined;
  if (w === "call" && next.some((x) => TECHNICAL_CALL.has(x))) return undefined;
  if (w === "format" && next.some((x) => /^(disk|drive|partition|volume|device)s?$/.test(x))) return "destructive";
  for (const c of ACTION_CLASSES) if (ACTION_VERBS[c].has(w) || (nounVerbs && NOUN_VERBS[c].has(w))) return c;
  return undefined;
}

/** Action classes named by a tool name's words; `decided` is false when the name has no verb or only a generic one and names no class. */
function nameClasses(raw: string[]): { classes: Set<ActionClass>; read: boolean; decided: boolean } {
  const ws = mergeVendors(raw);
  const classes = new Set<ActionClass>();
  const p = primaryVerb(ws);
  if ((p < 0 || isNounVerb(ws[p])) && ws.some((w) => READ_NOUNS.has(w))) return { classes, read: true, decided: true };
  if (p < 0) {
    // No verb: "payments", "wire_service" name their effect; "DataAccess", "share_link" alone grant nothing.
    for (const c of ACTION_CLASSES) if (ws.some((w) => OBJECTS[c].has(w) && (c !== "sharing" || w === "acl"))) classes.add(c);
    return { classes, read: false, decided: classes.size > 0 };
  }
  const verb = ws[p];
  if (READ_VERBS.has(verb)) {
    // A read does nothing unless another action is chained to it: read_and_reply, search_then_delete.
    ws.forEach((w, i) => {
      if (i > p && CONNECTORS.has(ws[i - 1])) {
        const c = verbClass(ws, i, true);
        if (c) classes.add(c);
      }
    });
    return { classes, read: true, decided: true };
  }
  const primary = verbClass(ws, p, true);
  if (primary) classes.add(primary);
  ws.forEach((_, i) => {
    const c = i === p ? undefined : verbClass(ws, i, false);
    if (c) classes.add(c);
  });
  const objects = ws.slice(p + 1);
  if (CREATING.has(verb) || GENERIC.has(verb)) for (const c of ["financial", "outbound"] as ActionClass[]) if (objects.some((w) => OBJECTS[c].has(w))) classes.add(c);
  if (ACCESS_CHANGING.has(verb) || CREATING.has(verb)) if (objects.some((w) => OBJECTS.sharing.has(w))) classes.add("sharing");
  // "send_money" moved money; it sent no message.
  if (classes.has("financial") && verb === "send") classes.delete("outbound");
  return { classes, read: false, decided: classes.size > 0 || !GENERIC.has(verb) };
}

/** "deletes" -> "delete", "removing" -> "remove", "retrieves" -> "retrieve": the lexicon's form, if any. */
function verbForm(w: string): string | undefined {
  const candidates = [w];
  if (w.endsWith("ies")) candidates.push(w.slice(0, -3) + "y");
  if (w.endsWith("es")) candidates.push(w.slice(0, -2));
  if (w.endsWith("s")) candidates.push(w.slice(0, -1));
  if (w.endsWith("ing")) candidates.push(w.slice(0, -3), w.slice(0, -3) + "e", w.slice(0, -4));
  if (w.endsWith("ed")) candidates.push(w.slice(0, -2), w.slice(0, -1), w.slice(0, -3));
  return candidates.find((c) => c.length > 1 && isVerb(c) && !NOT_VERBS.has(c));
}

/** The description of a definition text (name, description, parameters JSON on separate lines), when it has one. */
function descriptionOf(definition: string): string {
  const lines = definition.split("\n");
  const rest = lines.slice(1).filter((l) => !/^\s*[{[]/.test(l));
  return rest.join(" ");
}

const AUXILIARIES = words("do does did can could will would may might should shall must is are was were be been being has have had");

/** The first verb of the description's first sentence with its next words, as name words. */
function descriptionWords(definition: string): string[] {
  const sentence = descriptionOf(definition).split(/(?<=[.!?])\s|\n/)[0] ?? "";
  const ws = sentence
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 40);
  // The verb of "A tool for monitoring...", "Permanently deletes...": early in the sentence; a later one belongs to a clause.
  const verbWindow = 12;
  for (let i = 0; i < Math.min(ws.length, verbWindow); i++) {
    if (AUXILIARIES.has(ws[i])) continue;
    // "does not delete", "never sends": a negated verb is not what the tool does.
    if (/^(not|never|no|without)$/.test(ws[i])) {
      i++;
      continue;
    }
    const v = verbForm(ws[i]);
    if (v) return [v, ...ws.slice(i + 1, i + 9).map((w) => (MONEY.has(w) || OBJECTS.sharing.has(w) ? w : (verbForm(w) ?? w)))];
  }
  return [];
}

const ARG_SIGNALS: [ActionClass, RegExp][] = [
  ["sharing", /^(public|anyone|everyone|anyone_with_link|world)$/i],
  ["destructive", /^\s*(?:sudo\s+)?(?:rm|rmdir|shred|mkfs|dd)\b|\b(?:drop|truncate)\s+(?:table|database)\b|^\s*delete\s+from\b/i],
  ["financial", /^(?:usd|eur|gbp|btc|eth)$/i],
];

/**
 * Action classes of a tool call (empty for reads and anything else without the
 * consequences listed here). `definition` is the tool's definition text from
 * the same request, when it carried one.
 */
export function actionClasses(name: string, args: string, definition?: string): ActionClass[] {
  const ws = nameWords(name);
  let named = nameClasses(ws);
  if (!named.decided && definition) {
    const dw = descriptionWords(definition);
    if (dw.length) named = nameClasses(dw);
  }
  const found = new Set(named.classes);
  for (const v of argValues(args, 60)) {
    for (const [c, re] of ARG_SIGNALS) if (re.test(v.value.trim())) found.add(c);
    if (/^(method|http_method)$/i.test(v.key) && /^delete$/i.test(v.value)) found.add("destructive");
    if (/^(action|operation|op)$/i.test(v.key)) {
      const c = verbClass([v.value.toLowerCase()], 0, true);
      if (c) found.add(c);
    }
    if (/^(amount|amount_usd|price|total)$/i.test(v.key) && ws.some((w) => /^(create|make|send|execute|submit|issue|process)$/.test(w))) found.add("financial");
  }
  if (named.read) {
    // An argument of a read is data, not an operation: list_files(visibility: "public") shares nothing.
    for (const c of ["sharing", "financial"] as ActionClass[]) if (!named.classes.has(c)) found.delete(c);
  }
  return [...found];
}

const ASK_PATTERNS: Record<ActionClass, RegExp> = {
  destructive:
    /\b(delete|deleting|remove|removing|drop|destroy|purge|erase|wipe|clean(?:\s|-)?up|clear|get rid of|trash|uninstall|cancel|terminate|kill|revoke|empty|discard|prune|rm)\b/i,
  financial:
    /\b(pay|paying|payment|transfer|purchase|buy|buying|order|charge|refund|withdraw|deposit|wire|checkout|trade|sell|invest|send (?:money|funds|\$)|donate|tip)\b|[$€£]\s?\d/i,
  // Verbs only: "read the latest email" asks for no sending; "email Bob" and "please text her" do.
  outbound:
    /\b(send|sms|tweet|publish|reply|respond to|forward|notify|announce|let \w+ know|ping|dm|write to|contact|cc|bcc)\b|(?:^|[.!?,;:]\s*|\b(?:please|can you|could you|would you|and|then|to|also|pls)\s+)(?:email|e-mail|mail|message|text|post|slack|tell)\b/i,
  sharing: /\b(share|sharing|grant|give .{0,30}access|access|permission|public|invite|add .{0,30}(?:collaborator|member)|link|expose|open up|visible)\b/i,
};

const READ_ONLY =
  /\b(summar\w*|explain|what|which|who|when|where|why|how many|how much|find|search|look up|lookup|list|show|check|read|review|tell me|describe|analy[sz]e|compare|translate|draft|suggest|recommend|count|status|report on)\b/i;

/**
 * What the application's instructions make the agent's job. Stricter than a
 * user's request: only active verbs of the class ("sends replies", "pays
 * invoices") or a role named after it ("payments agent"), and never in a
 * sentence that negates, restricts or makes the action conditional.
 */
const JOB_PATTERNS: Record<ActionClass, RegExp> = {
  destructive: /\b(delet(?:e|es|ing)|remov(?:e|es|ing)|purg(?:e|es|ing)|eras(?:e|es|ing)|clean(?:s|ing)? up|clean-?up (?:agent|assistant|bot))\b/i,
  financial:
    /\b(pa(?:y|ys|ying) (?:bills|invoices|vendors|suppliers|merchants|people|users|for)|transfer(?:s|ring)? (?:money|funds)|process(?:es|ing)? (?:payments|refunds|orders|transactions)|issu(?:e|es|ing) refunds|refund(?:s|ing)? (?:customers|orders|payments)|plac(?:e|es|ing) orders|execut(?:e|es|ing) trades|(?:buy|sell)(?:s|ing)? (?:and sell(?:s|ing)? )?(?:stocks|shares|crypto|securities)|payments? (?:agent|assistant|bot|processor|service)|(?:trading|purchasing|procurement|billing|checkout|shopping) (?:agent|assistant|bot))\b/i,
  outbound:
    /\b(send(?:s|ing)?|forward(?:s|ing)?|publish(?:es|ing)?|tweet(?:s|ing)?|notif(?:y|ies|ying)|(?:repl(?:y|ies|ying)|respond(?:s|ing)?) to|post(?:s|ing)? (?:to|on|updates|messages|announcements|replies|comments|content)|e-?mail(?:s|ing)? (?:customers|users|clients|contacts|people|recipients|the team))\b/i,
  sharing:
    /\b(shar(?:e|es|ing) (?:documents|files|folders|access|links|reports)|grant(?:s|ing)? access|manag(?:e|es|ing) (?:permissions|access|sharing)|invit(?:e|es|ing) (?:users|people|members|collaborators))\b/i,
};
const RESTRICTED =
  /\b(never|not|no|don't|dont|doesn't|cannot|can't|mustn't|shouldn't|without|unless|except|only|avoid|refuse|prohibited|forbidden|disallowed|before|confirm|confirmation|approval|approve|when asked|if asked|on request|upon request|if requested|when requested|if the user asks|when the user asks)\b/i;

/** Sentences about a topic ("answers questions about deleting accounts") describe no job. */
const TOPICAL = /\b(about|how to|questions?|explain\w*|advice|advis\w*|learn\w*|understand\w*|teach\w*|tips?)\b/i;

/** Classes the system/developer instructions explicitly make the agent's job. */
export function expectedByInstructions(instructions: readonly string[]): Set<ActionClass> {
  const out = new Set<ActionClass>();
  for (const text of instructions) {
    for (const sentence of text.slice(0, 20000).split(/(?<=[.!?;:])\s+|\n+/)) {
      if (!sentence.trim() || RESTRICTED.test(sentence) || TOPICAL.test(sentence)) continue;
      for (const c of ACTION_CLASSES) if (JOB_PATTERNS[c].test(sentence)) out.add(c);
    }
  }
  return out;
}

export interface Request {
  asked: Set<ActionClass>;
  readOnly: boolean;
  /** Classes the application's instructions make the agent's job; never a deviation. */
  expected: Set<ActionClass>;
}

/** What one user message asks for: its action classes, and whether it asks to read or explain. */
export interface Ask {
  classes: ActionClass[];
  readOnly: boolean;
}

export function askOf(message: string): Ask {
  return { classes: ACTION_CLASSES.filter((c) => ASK_PATTERNS[c].test(message)), readOnly: READ_ONLY.test(message) };
}

/** The request several user messages make together, from each message's `askOf`. */
export function requestOfAsks(asks: Iterable<Ask>, expected: Set<ActionClass>): Request {
  const asked = new Set<ActionClass>();
  let readOnly = false;
  for (const a of asks) {
    for (const c of a.classes) asked.add(c);
    readOnly ||= a.readOnly;
  }
  // A request that asks for any consequential action is not read-only.
  return { asked, readOnly: readOnly && asked.size === 0, expected };
}

export function requestOf(userMessages: string[], instructions: readonly string[] = []): Request {
  return requestOfAsks(userMessages.map(askOf), expectedByInstructions(instructions));
}

/** Signatures of the deviations of a call; empty when the call stays within the request. */
export function deviationSignatures(classes: ActionClass[], req: Request): string[] {
  return classes.filter((c) => !req.asked.has(c) && !req.expected.has(c)).map((c) => `${c}:${req.readOnly ? "read_only_request" : "other_request"}`);
}
