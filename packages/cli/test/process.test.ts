// cc-compact as an operating-system process: signals, a reader that leaves early, secrets on stderr.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteIndex } from "@cc/search";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/command/exit-codes.js";
import { exposedRun, SECRET_FORMS, showSecret } from "../../lcm/test/secret-forms.js";
import { runCli, spawnBin } from "./run-cli.js";

let dir: string;
let big: string;
let small: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cc-process-"));
  big = join(dir, "big.json");
  // About 1 MB of chat JSON: more than a pipe holds, many units to evict.
  const chat = [{ role: "system", content: "You are a coding agent." }];
  for (let i = 0; i < 400; i++) {
    chat.push({
      role: "user",
      content: `Step ${i}: read src/module${i}.py ${"and explain the failing parser ".repeat(35)}`,
    });
    chat.push({
      role: "assistant",
      content: `Module ${i} raises KeyError in parse_${i}; ${"the header row is missing ".repeat(20)}`,
    });
  }
  writeFileSync(big, JSON.stringify(chat));
  small = join(dir, "small.json");
  writeFileSync(small, JSON.stringify(chat.slice(0, 41)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback server whose every request waits until `release` is called. */
async function holdingServer(): Promise<{
  server: Server;
  url: string;
  requests: () => number;
  firstRequest: Promise<void>;
  release: () => void;
}> {
  let requests = 0;
  let onFirst = (): void => undefined;
  const firstRequest = new Promise<void>((resolve) => (onFirst = resolve));
  const held: ServerResponse[] = [];
  let released = false;
  const answer = (res: ServerResponse): void => {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ choices: [{ message: { content: "Summary: the agent read files." } }], model: "m" }));
  };
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    requests++;
    onFirst();
    if (released) answer(res);
    else held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    server,
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    firstRequest,
    release: () => {
      released = true;
      for (const res of held.splice(0)) if (!res.destroyed) answer(res);
    },
  };
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe("cc-compact process handling", { timeout: 180_000 }, () => {
  it("SIGTERM to the PID of bin/cc-compact.js ends the work: nothing is written after it", async () => {
    const provider = await holdingServer();
    try {
      const run = spawnBin([small, "-b", "3000", "-p", "4", "--provider-url", provider.url, "--model", "m"]);
      await provider.firstRequest; // the run is waiting on the summariser
      const before = provider.requests();
      run.child.kill("SIGTERM");
      const exit = await run.exited;
      provider.release(); // a worker that survived would now get its summary and print the result
      await run.closed;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(exit).toEqual({ code: null, signal: "SIGTERM" });
      expect(run.stdout()).toBe("");
      expect(provider.requests()).toBe(before);
    } finally {
      await close(provider.server);
    }
  });

  it("SIGTERM during a hierarchical run leaves none of the run's entries in the index, or all of them", async () => {
    const complete = join(dir, "complete.db");
    const reference = await runCli([big, "-s", "hierarchical", "-b", "20000", "-p", "4", "-i", complete, "-q"]);
    expect(reference.code, reference.stderr).toBe(ExitCode.ok);
    const count = async (path: string): Promise<number> => {
      const opened = await openSqliteIndex({ path })();
      if (E.isLeft(opened)) throw new Error(JSON.stringify(opened.left));
      try {
        const n = await opened.right.count()();
        if (E.isLeft(n)) throw new Error(JSON.stringify(n.left));
        return n.right;
      } finally {
        await opened.right.close()();
      }
    };
    const all = await count(complete);
    expect(all).toBeGreaterThan(50);

    const path = join(dir, "interrupted.db");
    const run = spawnBin([big, "-s", "hierarchical", "-b", "20000", "-p", "4", "-i", path, "-q"]);
    let alive = true;
    void run.exited.then(() => (alive = false));
    // Interrupt as soon as the index exists and holds something, or when the run is about to end.
    for (let seen = 0; alive && seen === 0;) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (existsSync(path)) seen = await count(path).catch(() => 0);
    }
    run.child.kill("SIGTERM");
    await run.exited;
    const atExit = existsSync(path) ? await count(path) : 0;
    await run.closed; // every process that could write has closed stdout
    await new Promise((resolve) => setTimeout(resolve, 500));
    const left = existsSync(path) ? await count(path) : 0;
    expect(left).toBe(atExit); // nothing was written after the signal
    expect([0, all]).toContain(left); // and nothing partial
    if (left === 0) expect(run.stdout()).toBe("");
  });

  it("a reader that closes stdout early (| head -c 10) ends the run quietly with status 0", async () => {
    const run = spawnBin([big, "-b", "2000000"]);
    const first = await new Promise<string>((resolve) => run.child.stdout.once("data", (d: string) => resolve(d)));
    run.child.stdout.destroy(); // as `head -c 10` does after its ten bytes
    const exit = await run.exited;
    await run.closed;
    expect(first.slice(0, 10)).toBe("[\n  {\n    ");
    expect(exit).toEqual({ code: ExitCode.ok, signal: null });
    expect(run.stderr()).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(run.stderr()).toContain("801 messages");
  });

  it("bin/cc-compact.js runs from any working directory (tsx is resolved from the package, not the cwd)", async () => {
    const run = spawnBin(["--version"], {}, dir);
    expect(await run.exited).toEqual({ code: ExitCode.ok, signal: null });
    await run.closed;
    expect(run.stdout()).toBe("0.1.0\n");
  });

  it("never prints the key or URL credentials on stderr, even when the server echoes the key", async () => {
    const key = "sk-live-0123456789abcdefghij";
    const server = createServer((req, res) => {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(
          JSON.stringify({ error: { message: `Incorrect API key provided: ${key}`, got: req.headers.authorization } }),
        );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const echoed = await runCli(
        [small, "-b", "3000", "-p", "4", "--provider-url", `http://127.0.0.1:${port}/v1`, "--model", "m"],
        undefined,
        { CC_PROVIDER_KEY: key },
      );
      expect(echoed.code, echoed.stderr).toBe(ExitCode.provider);
      expect(echoed.stderr).toContain("Incorrect API key provided: ***");
      expect(echoed.stderr).not.toContain(key);
      expect(echoed.stderr).not.toContain(key.slice(3));
      const inUrl = await runCli([
        small,
        "-b",
        "3000",
        "-p",
        "4",
        "--provider-url",
        `http://admin:hunter2-pass@127.0.0.1:${port}/v1`,
        "--model",
        "m",
      ]);
      expect(inUrl.code, inUrl.stderr).toBe(ExitCode.usage);
      expect(inUrl.stderr).toContain("credentials in the URL are never sent");
      expect(inUrl.stderr).not.toContain("hunter2-pass");
      expect(inUrl.stdout).toBe("");
    } finally {
      await close(server);
    }
  });

  /** A loopback provider answering every request with `answer(request)`. */
  async function answering(
    answer: (req: IncomingMessage, res: ServerResponse) => void,
  ): Promise<{ server: Server; url: string }> {
    const server = createServer(answer);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1` };
  }

  it("never prints CC_PROVIDER_KEY, or 8 characters of it in a row, in any form the server echoes it", async () => {
    const key = "sk-live-Zx81Qw7eR5tY3uI9oP2aS4dF";
    const shown = SECRET_FORMS.map((form, i) => showSecret(key, form, (i % 4) / 4 + 0.1)).join(" | ");
    const provider = await answering((_req, res) => {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(`{"error":{"message":"Incorrect API key provided: ${shown}"}}`);
    });
    try {
      const run = await runCli(
        [small, "-b", "3000", "-p", "4", "--provider-url", provider.url, "--model", "m"],
        undefined,
        { CC_PROVIDER_KEY: key },
      );
      expect(run.code, run.stderr).toBe(ExitCode.provider);
      expect(run.stderr).toContain("Incorrect API key provided: ***");
      expect(exposedRun(run.stderr, key), run.stderr).toBeUndefined();
      expect(run.stdout).toBe("");
    } finally {
      await close(provider.server);
    }
  });

  it("never prints CC_PROVIDER_KEY on stdout, even inside a summary the provider wrote", async () => {
    const key = "sk-live-Summary0Echo1Key2Value3";
    const provider = await answering((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          choices: [
            {
              message: {
                content: `Summary: the agent read files with the key ${key.slice(0, 12)}\n${key.slice(12)}.`,
              },
            },
          ],
          model: "m",
        }),
      );
    });
    try {
      const run = await runCli(
        [small, "-b", "3000", "-p", "4", "--provider-url", provider.url, "--model", "m"],
        undefined,
        { CC_PROVIDER_KEY: key },
      );
      expect(run.code, run.stderr).toBe(ExitCode.ok);
      expect(run.stdout).toContain("Summary: the agent read files with the key ***");
      expect(exposedRun(run.stdout, key)).toBeUndefined();
      expect(exposedRun(run.stderr, key)).toBeUndefined();
    } finally {
      await close(provider.server);
    }
  });

  it("never prints a credential from the --provider-url query (key, api_key, token, access_token), nor the query", async () => {
    const provider = await answering((req, res) => {
      const value = new URL(req.url ?? "/", "http://x").searchParams.values().next().value ?? "";
      res.writeHead(401, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: `denied: ${req.method ?? ""} ${req.url ?? ""} (credential ${value}, ${Buffer.from(value).toString("base64")})`,
        }),
      );
    });
    try {
      const names = ["key", "api_key", "token", "access_token"];
      const runs = await Promise.all(
        names.map((name) =>
          runCli([
            small,
            "-b",
            "3000",
            "-p",
            "4",
            "--provider-url",
            `${provider.url}?${name}=Qv-${name}-7f3a9c1e5b`,
            "--model",
            "m",
          ]),
        ),
      );
      runs.forEach((run, i) => {
        const name = names[i]!;
        expect(run.code, run.stderr).toBe(ExitCode.provider);
        expect(run.stderr).toContain(`the provider at ${provider.url}?*** failed`);
        expect(run.stderr).toContain("denied: POST /v1/chat/completions?***");
        expect(exposedRun(run.stderr, `Qv-${name}-7f3a9c1e5b`), run.stderr).toBeUndefined();
        expect(run.stderr).not.toContain(`${name}=`);
        expect(run.stdout).toBe("");
      });
    } finally {
      await close(provider.server);
    }
  });

  it("never prints the query or credentials of a malformed --provider-url", async () => {
    const secret = "Mq-secret-4d2b8e6a0c";
    const urls = [
      `127.0.0.1:8080/v1?key=${secret}`,
      `http://[::1/v1?api_key=${secret}`,
      `http://127.0.0.1:99999/v1?token=${secret}`,
      `http://admin:${secret}@[::1/v1`,
      `http://127.0.0.1:1/v1#access_token=${secret}`,
    ];
    const runs = await Promise.all(
      urls.map((url) => runCli([small, "-b", "3000", "-p", "4", "--provider-url", url, "--model", "m"])),
    );
    runs.forEach((run, i) => {
      // The last one is a well-formed URL (with a fragment) of a port nothing listens on.
      expect(run.code, `${urls[i]!}: ${run.stderr}`).toBe(i === urls.length - 1 ? ExitCode.provider : ExitCode.usage);
      expect(run.stderr).toMatch(
        i === urls.length - 1 ? /the provider at http:\/\/127\.0\.0\.1:1\/v1#\*\*\* failed/ : /--provider-url: /,
      );
      expect(exposedRun(run.stderr, secret), run.stderr).toBeUndefined();
      expect(run.stdout).toBe("");
    });
  });
});
