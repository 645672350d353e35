// Runs a writer child process (node + tsx) and kills it with SIGKILL once it has acknowledged
// `minAcks` batches, after a random extra delay, so the kill lands in the middle of a batch.
import { spawn } from "node:child_process";

/** The batches the child acknowledged (`ack <n>` lines) before it was killed. */
export function writeUntilKilled(script: string, args: readonly string[], minAcks: number): Promise<readonly number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", script, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const acks: number[] = [];
    let buffered = "";
    let errors = "";
    let killing = false;
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stderr.on("data", (d: Buffer) => void (errors += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const m = /^ack (\d+)$/.exec(line);
        if (m !== null) acks.push(Number(m[1]));
      }
      if (!killing && acks.length >= minAcks) {
        killing = true;
        setTimeout(() => child.kill("SIGKILL"), Math.floor(Math.random() * 15));
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(guard);
      if (signal !== "SIGKILL") reject(new Error(`writer exited with ${String(code)} ${String(signal)}: ${errors}`));
      else resolve(acks);
    });
  });
}
