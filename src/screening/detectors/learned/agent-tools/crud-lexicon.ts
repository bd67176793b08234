// Verb lexicon for tool_risk/create, read, update, delete.
// The CRUD model gets "this word is a delete verb" as a feature, so a verb
// seen only in the lexicon (not in the generated training calls) still counts.
export type Crud = "create" | "read" | "update" | "delete";

const LEXICON: Record<Crud, string> = {
  create:
    "create add new insert post make register upload schedule book open generate provision compose submit publish enroll init initialize spawn save " +
    "write append put build clone copy duplicate fork start launch invite issue mint allocate deploy install import attach subscribe signup sign " +
    "draft send reply comment create_or reserve order place plant seed store record log",
  read:
    "get fetch read list search find query lookup look retrieve show view describe check download count browse inspect load export preview " +
    "display print cat head tail grep ls stat scan watch monitor poll lookup_ summarize summarise analyze analyse explain audit verify validate test " +
    "peek open_read select whoami info details status history tail_log receive pull sync_from compare diff lookup_by resolve translate convert calculate",
  update:
    "update edit modify set change rename patch move replace configure enable disable assign toggle upsert approve mark reset reschedule archive " +
    "merge apply promote demote grant lock unlock pause resume restore rotate refresh reorder sort tag label link increment decrement adjust " +
    "chmod chown mv sed transfer swap migrate upgrade downgrade reassign resize scale star pin unpin flag close reopen complete accept reject",
  delete:
    "delete remove drop destroy purge erase clear wipe unlink revoke cancel truncate uninstall deregister discard evict terminate unsubscribe " +
    "detach trash rm rmdir del kill shred expunge prune flush nuke dismiss void withdraw retract deactivate delist unpublish unregister",
};

const INDEX = new Map<string, Crud>();
for (const c of ["read", "create", "update", "delete"] as Crud[]) for (const w of LEXICON[c].split(/\s+/)) if (w) INDEX.set(w, c);

export function crudOfWord(word: string): Crud | undefined {
  return INDEX.get(word);
}

/** HTTP methods and SQL statements name their operation outright. */
export const HTTP_CRUD: Record<string, Crud> = { GET: "read", HEAD: "read", OPTIONS: "read", POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" };
export const SQL_CRUD: Record<string, Crud> = {
  select: "read",
  with: "read",
  show: "read",
  describe: "read",
  explain: "read",
  insert: "create",
  create: "create",
  update: "update",
  alter: "update",
  merge: "update",
  upsert: "update",
  replace: "update",
  grant: "update",
  delete: "delete",
  drop: "delete",
  truncate: "delete",
  revoke: "delete",
};
