// The HTTP provider against a real loopback server speaking /v1/chat/completions and /v1/models.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chooseCompactionModel } from "../src/model-choice.js";
import { classifyStatus, openAICompatibleProvider, retryAfterMs } from "../src/providers/http.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let server: Server;
let base = "";
let handlers: Handler[] = [];
const seen: { path: string; auth: string | undefined; body: string }[] = [];

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
};
const ok = (content: string): Handler => (_q, _b, res) => json(res, 200, { choices: [{ message: { content } }], usage: { prompt_tokens: 11, completion_tokens: 3 }, model: "m" });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", auth: req.headers.authorization, body });
      const next = handlers.shift();
      if (next === undefined) json(res, 500, { error: "no handler" });
      else next(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
beforeEach(() => {
  handlers = [];
  seen.length = 0;
});

const provider = (extra = {}) => openAICompatibleProvider({ baseUrl: base, apiKey: "k", backoffMs: 1, timeoutMs: 500, ...extra });
const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }], maxTokens: 5, temperature: 0 };

describe("openAICompatibleProvider on loopback", () => {
  it("completes and sends the OpenAI wire format with the bearer key", async () => {
    handlers = [ok("hello")];
    const r = await provider().complete(request)();
    expect(r).toEqual(E.right({ text: "hello", model: "m", usage: { inputTokens: 11, outputTokens: 3 } }));
    expect(seen[0]?.path).toBe("/v1/chat/completions");
    expect(seen[0]?.auth).toBe("Bearer k");
    expect(JSON.parse(seen[0]!.body)).toEqual({ model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 5, temperature: 0 });
  });
  it("retries 429 and 503, honouring Retry-After", async () => {
    handlers = [(_q, _b, res) => json(res, 429, { error: "slow down" }, { "retry-after": "0" }), (_q, _b, res) => json(res, 503, "down"), ok("finally")];
    const r = await provider().complete(request)();
    expect(E.isRight(r) && r.right.text).toBe("finally");
    expect(seen).toHaveLength(3);
  });
  it("gives up after maxRetries with a transient error", async () => {
    handlers = Array.from({ length: 5 }, () => (_q: IncomingMessage, _b: string, res: ServerResponse) => json(res, 502, "bad gateway"));
    const r = await provider({ maxRetries: 2 }).complete(request)();
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "ProviderTransientError", status: 502 });
    expect(seen).toHaveLength(3);
  });
  it("classifies 401 as auth and 400 as a request error, without retrying", async () => {
    handlers = [(_q, _b, res) => json(res, 401, "no"), (_q, _b, res) => json(res, 400, "bad")];
    expect(await provider().complete(request)()).toMatchObject(E.left({ _tag: "ProviderAuthError", status: 401 }));
    expect(await provider().complete(request)()).toMatchObject(E.left({ _tag: "ProviderRequestError", status: 400 }));
    expect(seen).toHaveLength(2);
  });
  it("reports malformed JSON and wrong shapes as invalid responses", async () => {
    handlers = [(_q, _b, res) => json(res, 200, "{not json"), (_q, _b, res) => json(res, 200, { choices: [] }), (_q, _b, res) => json(res, 200, { nope: 1 })];
    for (let i = 0; i < 3; i++) expect(E.isLeft(await provider().complete(request)())).toBe(true);
  });
  it("times out a hanging server", async () => {
    handlers = [() => undefined];
    const r = await provider({ timeoutMs: 50, maxRetries: 0 }).complete(request)();
    expect(r).toEqual(E.left({ _tag: "ProviderTimeout", timeoutMs: 50 }));
  });
  it("honours a caller abort", async () => {
    handlers = [() => undefined];
    const controller = new AbortController();
    const pending = provider({ timeoutMs: 5000 }).complete({ ...request, signal: controller.signal })();
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toEqual(E.left({ _tag: "ProviderAborted" }));
  });
  it("reports a refused connection as transient", async () => {
    const r = await openAICompatibleProvider({ baseUrl: "http://127.0.0.1:1/v1", maxRetries: 0 }).complete(request)();
    expect(E.isLeft(r) && r.left._tag).toBe("ProviderTransientError");
  });
  it("lists models with prices and picks the cheapest by output cost", async () => {
    const models = { data: [{ id: "big", pricing: { prompt: "0.000003", completion: "0.000015" } }, { id: "small", pricing: { prompt: 0.0000001, completion: 0.0000004 } }, { id: "unpriced" }] };
    handlers = [(_q, _b, res) => json(res, 200, models), (_q, _b, res) => json(res, 200, models)];
    const listed = await provider({ catalogue: [{ id: "unpriced", outputCostPerMTok: 100, strength: "very_high" }] }).listModels()();
    expect(E.isRight(listed) && listed.right.map((m) => [m.id, m.outputCostPerMTok])).toEqual([["big", 15], ["small", 0.4], ["unpriced", 100]]);
    expect(await chooseCompactionModel(provider(), "")()).toEqual(E.right("small"));
  });
});

describe("HTTP helpers", () => {
  it("parses Retry-After seconds and dates", () => {
    expect(retryAfterMs("2", 0)).toBe(2000);
    expect(retryAfterMs("Thu, 01 Jan 1970 00:00:05 GMT", 1000)).toBe(4000);
    expect(retryAfterMs("soon", 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });
  it("classifies statuses", () => {
    expect(classifyStatus(403, "")._tag).toBe("ProviderAuthError");
    expect(classifyStatus(429, "")._tag).toBe("ProviderTransientError");
    expect(classifyStatus(500, "")._tag).toBe("ProviderTransientError");
    expect(classifyStatus(404, "")._tag).toBe("ProviderRequestError");
  });
});
