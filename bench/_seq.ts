import http from "node:http";
import { conversation } from "./conversation.js";
const port = Number(process.argv[2]); const count = Number(process.argv[3] ?? 3000); const chars = Number(process.argv[4] ?? 1000);
const KEY = "psk_bench_key_0000000000000000000000000000";
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const body = JSON.stringify({ messages: conversation(chars, 42) });
function post(p: string): Promise<number> { return new Promise((resolve, reject) => { const t = performance.now(); const req = http.request({ host: "127.0.0.1", port, path: p, method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${KEY}`, "content-length": Buffer.byteLength(body) } }, (res) => { res.resume(); res.on("end", () => res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(String(res.statusCode)))); }); req.on("error", reject); req.end(body); }); }
for (let i = 0; i < 300; i++) await post("/v2/guard");
const lat: number[] = [];
for (let i = 0; i < count; i++) lat.push(await post(process.argv[5] ?? "/v2/guard"));
lat.sort((a, b) => a - b);
const p = (q: number) => lat[Math.floor(q * lat.length)].toFixed(2);
console.log(`p50 ${p(0.5)} p90 ${p(0.9)} p95 ${p(0.95)} p99 ${p(0.99)} max ${lat[lat.length-1].toFixed(2)}`);
agent.destroy();
