// Synthetic conversations for benchmarks: ordinary support-chat sentences with
// the occasional e-mail, phone number and link, so detectors do real work.
// Seeded, so every run screens the same text.
const openers = ["Hi, I need help with", "Could you explain", "I am trying to understand", "Please summarize", "Can you check", "We are planning"];
const topics = [
  "my last invoice",
  "the deployment pipeline",
  "our travel booking for March",
  "the quarterly report",
  "a failing unit test",
  "the new onboarding flow",
  "the database migration",
];
const details = [
  "It started after the update on Tuesday and nobody on the team knows why.",
  "You can reach me at alex.morgan@example.org or call +1 415 555 0134.",
  "The documentation at https://docs.example.com/guide/setup was not clear about it.",
  "We already tried restarting the service twice without any change.",
  "Our customer in Berlin asked for a written answer before Friday.",
  "The error message says the connection was reset by the peer.",
  "I attached the logs from the staging environment to the ticket.",
];

function rng(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
}

/** Messages alternating user/assistant whose contents add up to `chars` characters. */
export function conversation(chars: number, seed: number): { role: string; content: string }[] {
  const random = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const messages: { role: string; content: string }[] = [];
  let total = 0;
  while (total < chars) {
    let content = "";
    const target = Math.min(chars - total, 200 + Math.floor(random() * 1800));
    while (content.length < target) content += `${pick(openers)} ${pick(topics)}. ${pick(details)} `;
    content = content.slice(0, target);
    messages.push({ role: messages.length % 2 === 0 ? "user" : "assistant", content });
    total += content.length;
  }
  return messages;
}
