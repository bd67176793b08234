// Which of a model's outputs feeds which detector (docs/learned-detectors.md#label-maps).
// By default the map is read off config.json's id2label names (INJECTION,
// toxic, B-PER, ...); a slot's _LABELS setting replaces it with
// `detector_label=model_label` pairs, the model label by name or by index.

/** The built-in detectors a configured model can serve. */
export type ModelSlot = "prompt_attack" | "moderation" | "pii";

/** Each slot's detector labels: the detector type without its family prefix. */
export const SLOT_LABELS: Record<ModelSlot, readonly string[]> = {
  prompt_attack: ["prompt_attack"],
  moderation: ["hate", "sexual", "violence", "weapons", "crime", "self_harm"],
  pii: ["name", "address", "phone_number", "email", "credit_card", "iban_code", "us_social_security_number", "ip_address"],
};

export function detectorTypeOf(slot: ModelSlot, label: string): string {
  return slot === "prompt_attack" ? label : slot === "moderation" ? `moderated_content/${label}` : `pii/${label}`;
}

/** One `detector_label=model_label` pair of a _LABELS setting. */
export interface LabelPair {
  detector: string;
  model: string;
}

/** A text classifier's map: per detector label, the output indexes that feed it. */
export interface ClassMap {
  labels: string[];
  indexes: number[][];
}

/** How a token classifier's tag reads: BIO, BIOES or BILOU prefix (L and U written as E and S), and its entity. */
export interface Tag {
  prefix: "B" | "I" | "E" | "S" | "O";
  entity: string;
}

/** A token classifier's map: each output's tag, and the detector label of each entity the model reports. */
export interface TagMap {
  tags: Tag[];
  entities: Map<string, string>;
}

/** Lower case, separators as underscores: "Self-Harm" and "self_harm" are one name. */
const key = (name: string) => name.toLowerCase().replace(/[\s\-/:.]+/g, "_");

function table(entries: Record<string, string[]>): Map<string, string> {
  const m = new Map<string, string>();
  for (const [label, names] of Object.entries(entries)) for (const n of names) m.set(n, label);
  return m;
}

// Names published moderation and prompt-attack classifiers give their outputs
// (OpenAI's and MLCommons' category names, Jigsaw toxicity, Prompt Guard,
// deberta-v3 prompt-injection); a compound name such as "hate/threatening" is
// read by its first part. docs/learned-detectors.md#label-maps lists them.
const ATTACK = new Set(["injection", "prompt_injection", "jailbreak", "malicious", "attack", "prompt_attack", "unsafe"]);
const MODERATION = table({
  hate: ["hate", "hateful", "hate_speech", "identity_hate", "identity_attack", "toxic", "toxicity", "severe_toxic", "severe_toxicity", "insult", "harassment", "offensive", "abusive", "abuse"],
  sexual: ["sexual", "sexually_explicit", "sexual_explicit", "sexual_content", "nsfw", "porn", "pornography", "sex_related_crimes"],
  violence: ["violence", "violent", "threat", "threats", "graphic_violence", "gore", "violent_crimes"],
  weapons: ["weapons", "weapon", "firearms", "guns", "explosives", "indiscriminate_weapons"],
  crime: ["crime", "crimes", "criminal", "illegal", "illicit", "non_violent_crimes", "fraud"],
  self_harm: ["self_harm", "selfharm", "self_injury", "suicide", "suicide_self_harm", "suicide_and_self_harm"],
});
const ENTITIES = table({
  name: ["per", "pers", "person", "name", "full_name", "fullname", "first_name", "firstname", "last_name", "lastname", "given_name", "givenname", "surname", "middle_name", "private_person"],
  address: ["loc", "location", "address", "street", "street_address", "streetaddress", "city", "zipcode", "zip_code", "postcode", "postal_code", "buildingnum", "building_number", "secondary_address", "gpe", "private_address"],
  phone_number: ["phone", "phone_number", "phonenumber", "telephone", "telephonenum", "telephone_number", "tel", "mobile", "private_phone"],
  email: ["email", "email_address", "emailaddress", "private_email"],
  credit_card: ["credit_card", "creditcard", "creditcardnumber", "credit_card_number", "card_number"],
  iban_code: ["iban", "iban_code"],
  us_social_security_number: ["ssn", "us_ssn", "social_security_number", "socialnum"],
  ip_address: ["ip", "ip_address", "ipaddress", "ipv4", "ipv6"],
});

/** "hate=0,self_harm=suicide": the pairs of a _LABELS setting, in order. */
export function parseLabelPairs(raw: string, setting: string): LabelPair[] {
  return raw.split(",").map((entry) => {
    const m = /^\s*([^=\s]+)\s*=\s*(\S(?:.*\S)?)\s*$/.exec(entry);
    if (!m) throw new Error(`${setting}: '${entry.trim()}' is not detector_label=model_label (e.g. "hate=toxic,violence=2")`);
    return { detector: m[1], model: m[2] };
  });
}

/** The index a pair's model label names among `names` (by index, exact name, or name in any case). */
function indexOf(model: string, names: readonly string[], setting: string): number {
  if (/^\d+$/.test(model)) {
    const i = Number(model);
    if (i >= names.length) throw new Error(`${setting}: the model has ${names.length} output${names.length === 1 ? "" : "s"}; index ${i} is beyond them`);
    return i;
  }
  let i = names.indexOf(model);
  if (i < 0) i = names.findIndex((n) => n.toLowerCase() === model.toLowerCase());
  if (i < 0) throw new Error(`${setting}: the model has no label '${model}' (its labels: ${names.join(", ")})`);
  return i;
}

function checkDetectorLabel(slot: ModelSlot, label: string, setting: string): void {
  if (!SLOT_LABELS[slot].includes(label)) throw new Error(`${setting}: unknown detector label '${label}'; the ${slot} labels are ${SLOT_LABELS[slot].join(", ")}`);
}

/** The default label a classifier output name gives a slot, if any. */
function defaultClassLabel(slot: ModelSlot, name: string): string | undefined {
  const k = key(name);
  if (slot === "prompt_attack") return ATTACK.has(k) ? "prompt_attack" : undefined;
  return MODERATION.get(k) ?? MODERATION.get(k.split("_")[0]) ?? MODERATION.get(key(name.split(/[/:]/)[0]));
}

/**
 * A text classifier's map for a slot, from the override pairs or else the
 * output names; throws one line when it maps nothing or names what the model
 * or the slot does not have.
 */
export function classMap(slot: ModelSlot, names: readonly string[], pairs: LabelPair[] | undefined, setting: string): ClassMap {
  const byLabel = new Map<string, number[]>();
  const owner = new Map<number, string>();
  const add = (label: string, i: number) => {
    const other = owner.get(i);
    if (other !== undefined && other !== label) throw new Error(`${setting}: output ${i} (${names[i]}) is given to both ${other} and ${label}`);
    if (other === label) throw new Error(`${setting}: ${label}=${names[i]} is given twice`);
    owner.set(i, label);
    byLabel.set(label, [...(byLabel.get(label) ?? []), i]);
  };
  if (pairs) {
    for (const p of pairs) {
      checkDetectorLabel(slot, p.detector, setting);
      add(p.detector, indexOf(p.model, names, setting));
    }
  } else {
    names.forEach((n, i) => {
      const label = defaultClassLabel(slot, n);
      if (label) add(label, i);
    });
    // Two outputs named only by position: the second is the positive class, as binary classifiers are trained.
    if (slot === "prompt_attack" && byLabel.size === 0 && names.length === 2 && names[0] === "LABEL_0" && names[1] === "LABEL_1") add("prompt_attack", 1);
    // One output is the attack logit itself, whatever it is called.
    if (slot === "prompt_attack" && byLabel.size === 0 && names.length === 1) add("prompt_attack", 0);
  }
  if (byLabel.size === 0) {
    throw new Error(
      `none of the model's labels (${names.join(", ")}) maps to a ${slot} detector label (${SLOT_LABELS[slot].join(", ")}); name them in ${setting}, e.g. ${SLOT_LABELS[slot][0]}=${names[names.length - 1]}`,
    );
  }
  const labels = SLOT_LABELS[slot].filter((l) => byLabel.has(l));
  return { labels, indexes: labels.map((l) => byLabel.get(l)!) };
}

/** A token classifier's tag: "B-PER" -> B, PER; "U-LOC" -> S, LOC; "O" -> O; "PER" -> I, PER. */
export function tagOf(name: string): Tag {
  if (name === "O") return { prefix: "O", entity: "" };
  const m = /^([BIESLU])[-_](.+)$/.exec(name);
  if (!m) return { prefix: "I", entity: name };
  const p = m[1] === "L" ? "E" : m[1] === "U" ? "S" : (m[1] as Tag["prefix"]);
  return { prefix: p, entity: m[2] };
}

/** A token classifier's map, from the override pairs (entity name or a tag's index) or else the entity names. */
export function tagMap(names: readonly string[], pairs: LabelPair[] | undefined, setting: string): TagMap {
  const tags = names.map(tagOf);
  const entities = new Map<string, string>();
  if (pairs) {
    for (const p of pairs) {
      checkDetectorLabel("pii", p.detector, setting);
      let entity: string;
      if (/^\d+$/.test(p.model)) {
        const t = tags[indexOf(p.model, names, setting)];
        if (t.prefix === "O") throw new Error(`${setting}: output ${p.model} is the outside tag O, not an entity`);
        entity = t.entity;
      } else {
        const found = tags.find((t) => t.prefix !== "O" && t.entity.toLowerCase() === p.model.toLowerCase());
        if (!found) throw new Error(`${setting}: the model has no entity '${p.model}' (its entities: ${[...new Set(tags.filter((t) => t.prefix !== "O").map((t) => t.entity))].join(", ")})`);
        entity = found.entity;
      }
      const other = entities.get(entity);
      if (other !== undefined) throw new Error(`${setting}: entity ${entity} is given to both ${other} and ${p.detector}`);
      entities.set(entity, p.detector);
    }
  } else {
    for (const t of tags) {
      if (t.prefix === "O" || entities.has(t.entity)) continue;
      const label = ENTITIES.get(key(t.entity));
      if (label) entities.set(t.entity, label);
    }
  }
  if (entities.size === 0) {
    const found = [...new Set(tags.filter((t) => t.prefix !== "O").map((t) => t.entity))];
    throw new Error(
      `none of the model's entities (${found.join(", ") || "none: every output is O"}) maps to a pii detector label (${SLOT_LABELS.pii.join(", ")}); name them in ${setting}, e.g. name=${found[0] ?? "PER"}`,
    );
  }
  return { tags, entities };
}
