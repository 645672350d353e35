// A tiny filesystem for full-disk tests: a tmpfs of `sizeKiB` mounted on a fresh directory (the
// tests run as root), plus a ballast file that takes most of the space and can be deleted to
// free it. Throws with the reason when mounting is not permitted.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A mounted tiny filesystem. */
export interface TinyFs {
  readonly dir: string;
  /** Deletes the ballast file, freeing its space. */
  readonly free: () => void;
  /** Unmounts and removes the directory. */
  readonly dispose: () => void;
}

/** Mounts a tmpfs of `sizeKiB` with a ballast file of `ballastKiB` in it. */
export function tinyFs(sizeKiB: number, ballastKiB: number): TinyFs {
  const dir = mkdtempSync(join(tmpdir(), "cc-tinyfs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKiB}k`, "tmpfs", dir], {
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `cannot mount a tmpfs for the full-disk test (root is needed): ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  const ballast = join(dir, "ballast");
  writeFileSync(ballast, Buffer.alloc(ballastKiB * 1024, 1));
  return {
    dir,
    free: () => rmSync(ballast, { force: true }),
    dispose: () => {
      try {
        execFileSync("umount", [dir], { stdio: "ignore" });
      } catch {
        execFileSync("umount", ["-l", dir], { stdio: "ignore" });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
