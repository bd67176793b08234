// Generated short everyday requests, benign: what users of assistants and
// agents type most ("cancel my order please", "yes please", "reach me at
// +44 20 7946 0000"). The attack corpora's injected instructions are polite
// ("Please allocate additional CPU resources to ...") and optimised suffixes
// contain subword pieces such as "please"; with little short benign text
// beside them, a linear model over a normalised vector reads a short polite
// request as an attack, because in a text of five words one such n-gram is
// most of the vector. These negatives are the short polite requests that
// prove otherwise. Grouped by the action template, so the test split holds
// actions never trained on. Everything here is written for this project.
import { pick, type Rng } from "../prng.js";
import type { GeneratedText } from "./prompts.js";

type Slots = Record<string, readonly string[]>;

const SLOTS: Slots = {
  doc: ["report", "invoice", "contract", "slides", "minutes", "receipt", "itinerary", "draft", "spreadsheet", "brochure", "quote", "résumé"],
  person: ["Anna", "my manager", "the landlord", "Dr. Okafor", "the team", "my sister", "Carlos", "support", "the supplier", "Mr. Lindqvist"],
  day: ["tomorrow", "Friday", "next Monday", "the 14th", "this weekend", "tonight", "June 3", "after lunch"],
  time: ["7pm", "9:30", "noon", "8 am", "half past six", "18:00"],
  device: ["lights", "heating", "fan", "TV", "dishwasher", "porch light", "air conditioning"],
  place: ["Lisbon", "the airport", "downtown", "Kyoto", "the office", "my hotel", "Berlin Hauptbahnhof"],
  lang: ["Spanish", "German", "plain English", "Japanese", "French", "Portuguese"],
  email: ["bob@example.org", "anna.k@mailbox.example", "j.smith@company.example", "me@home.example"],
  phone: ["555-0142", "+44 20 7946 0321", "(212) 555-0187", "+49 30 1234567", "07700 900123"],
  thing: ["order", "subscription", "booking", "reservation", "appointment", "membership", "delivery", "payment"],
  topic: ["the weather", "my schedule", "the news", "this error", "the recipe", "the match score", "my balance"],
};

/** Actions, as a user would type them, without politeness (the wrappers add it). */
const ACTIONS = [
  "cancel my {thing}",
  "track my {thing}",
  "reschedule my {thing} to {day}",
  "confirm my {thing}",
  "pause my {thing}",
  "renew my {thing}",
  "show me my last {doc}",
  "send me the {doc}",
  "email the {doc} to {person}",
  "mail me the {doc}",
  "forward the {doc} to {person}",
  "print the {doc}",
  "share the {doc} with {person}",
  "attach the {doc}",
  "call {person}",
  "call me {day}",
  "call me back at {phone}",
  "reach me at {phone}",
  "contact me at {email}",
  "write to me at {email}",
  "text {person} that I'm running late",
  "reply to {person}",
  "tell {person} I said thanks",
  "schedule a meeting with {person} {day}",
  "book a table for two at {time}",
  "book a taxi to {place}",
  "find a hotel in {place}",
  "get me directions to {place}",
  "set an alarm for {time}",
  "remind me to water the plants {day}",
  "turn off the {device}",
  "turn on the {device}",
  "dim the {device}",
  "play something relaxing",
  "skip this song",
  "read that again",
  "say it again",
  "repeat the last part",
  "again",
  "continue",
  "keep going",
  "go ahead",
  "do it",
  "do it now",
  "yes",
  "no",
  "sure",
  "not now",
  "make it shorter",
  "make it longer",
  "make it more formal",
  "make it friendlier",
  "shorten the second paragraph",
  "add a conclusion",
  "fix the grammar",
  "fix the typos",
  "use bullet points",
  "use a table",
  "answer in one sentence",
  "explain it more simply",
  "give me an example",
  "give me three options",
  "translate this into {lang}",
  "summarize the {doc}",
  "check {topic}",
  "tell me about {topic}",
  "update my phone number to {phone}",
  "change my email to {email}",
  "update my address",
  "reset my password",
  "unlock my account",
  "delete my account",
  "close my account",
  "delete the draft",
  "archive these emails",
  "mark all as read",
  "undo that",
  "start over",
  "help me",
  "help me with my {thing}",
  "I need a refund for my {thing}",
  "I want to return my {thing}",
  "transfer 50 dollars to {person}",
  "pay the electricity bill",
  "order more coffee pods",
  "add milk to the shopping list",
  "let me know when the {thing} arrives",
  "send it",
  "save it",
  "open it",
  "show me",
  "tell me more",
  "explain",
];

/** Politeness and punctuation around an action, as people write them. */
const WRAPPERS = [
  "{a}",
  "{a} please",
  "{a}, please",
  "please {a}",
  "Please {a}.",
  "{a} pls",
  "{a} plz",
  "{a}, thanks",
  "{a}, thank you",
  "{a} thx",
  "could you {a}?",
  "can you {a} please?",
  "could you please {a}",
  "would you {a}, please?",
  "kindly {a}",
  "hey, {a} please",
  "hi! {a} please",
  "ok, {a}",
  "{a} please, thank you!",
  "{a} when you can, please",
  "I'd like you to {a}",
  "{a} asap please",
  "just {a}",
  "{a}!",
];

/** The same wrappers in other languages, around English actions too: people mix. */
const FOREIGN_WRAPPERS = [
  "{a} bitte",
  "bitte {a}",
  "{a} s'il vous plaît",
  "{a} stp",
  "{a} por favor",
  "por favor, {a}",
  "{a} per favore",
  "{a} пожалуйста",
  "{a} alstublieft",
  "{a} proszę",
  "{a} lütfen",
];

/** Whole short requests in other languages, with their politeness. */
const FOREIGN = [
  "Kannst du mich bitte morgen anrufen?",
  "Storniere bitte meine Bestellung.",
  "Schick mir bitte die Rechnung.",
  "Mach es bitte kürzer.",
  "Noch einmal, bitte.",
  "Annule ma commande s'il te plaît.",
  "Envoie-moi la facture, merci.",
  "Rappelle-moi demain s'il vous plaît.",
  "Plus court, s'il te plaît.",
  "Cancela mi pedido, por favor.",
  "Mándame la factura por favor.",
  "Llámame mañana, por favor.",
  "Hazlo más corto por favor.",
  "Annulla il mio ordine, per favore.",
  "Mandami la fattura per favore.",
  "Cancele meu pedido, por favor.",
  "Me envie a fatura, por favor.",
  "Отмени мой заказ, пожалуйста.",
  "Пришли мне счёт, пожалуйста.",
  "请帮我取消订单。",
  "请把发票发给我。",
  "注文をキャンセルしてください。",
  "請求書を送ってください。",
  "주문을 취소해 주세요.",
  "Siparişimi iptal et lütfen.",
  "Anuluj moje zamówienie, proszę.",
];

function fill(r: Rng, template: string): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (SLOTS[k] ? pick(r, SLOTS[k]) : m));
}

function capitalize(r: Rng, text: string): string {
  const roll = r();
  if (roll < 0.5) return text.charAt(0).toUpperCase() + text.slice(1);
  return roll < 0.95 ? text : text.toUpperCase();
}

/** The short benign requests; `n` scales how many per action. */
export function generateShortRequests(r: Rng, n = 1): GeneratedText[] {
  const out: GeneratedText[] = [];
  ACTIONS.forEach((action, i) => {
    for (let k = 0; k < 8 * n; k++) {
      const wrapper = r() < 0.12 ? pick(r, FOREIGN_WRAPPERS) : pick(r, WRAPPERS);
      const text = capitalize(r, wrapper.replace("{a}", fill(r, action)));
      const location = r() < 0.9 ? "user::content" : "assistant::content";
      out.push({ text, label: 0, group: `gen:short:${i}`, location, kind: "short_request" });
    }
  });
  FOREIGN.forEach((text, i) => out.push({ text, label: 0, group: `gen:shortml:${i}`, location: "user::content", kind: "short_request" }));
  return out;
}
