import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";
import { askServer, controlPath, serveControl } from "../../src/workspace/control.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "ctxsmith-control-"));
  dirs.push(d);
  return d;
};

/** What a raw client gets back for `payload` (the connection ended by the server). */
function raw(path: string, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path, () => socket.write(payload));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (text += d));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe("the workspace server's control channel", () => {
  it("answers models and unload, passes an error on, and says when no server runs", async () => {
    const dir = dataDir();
    expect(await askServer(dir, "models")).toBeNull();
    const control = await serveControl(dir, async (op) => {
      if (op === "unload") throw new ContextSmithError("BUSY", "The model is busy (1 operation running).");
      return { loaded: [] };
    });
    try {
      expect(await askServer(dir, "models")).toEqual({ loaded: [] });
      await expect(askServer(dir, "unload")).rejects.toMatchObject({ code: "BUSY", message: "The model is busy (1 operation running)." });
    } finally {
      await control.close();
    }
    expect(existsSync(controlPath(dir))).toBe(false);
    expect(await askServer(dir, "models")).toBeNull();
  });

  it("refuses what is not a request, and a request too long, without running anything", async () => {
    const dir = dataDir();
    let ran = 0;
    const control = await serveControl(dir, async () => ++ran);
    try {
      const path = controlPath(dir);
      expect(JSON.parse(await raw(path, "hello\n")).error.message).toBe("not a JSON request");
      expect(JSON.parse(await raw(path, '{"op":"rm -rf"}\n')).error.message).toBe('unknown operation "rm -rf"');
      expect(JSON.parse(await raw(path, "null\n")).error.message).toBe("unknown operation undefined");
      expect(JSON.parse(await raw(path, `${"x".repeat(10_000)}`)).error.message).toBe("request too long");
      expect(JSON.parse(await raw(path, `{"op":"models","pad":"${"x".repeat(10_000)}"}\n`)).error.message).toBe("request too long");
      expect(ran).toBe(0);
      // Still serving.
      expect(await askServer(dir, "models")).toBe(1);
    } finally {
      await control.close();
    }
  });

  it("closes even while a client sits idle on it", async () => {
    const dir = dataDir();
    const control = await serveControl(dir, async () => null);
    const idle = connect(controlPath(dir));
    idle.on("error", () => undefined);
    await new Promise((resolve) => idle.once("connect", resolve));
    await control.close();
    expect(existsSync(controlPath(dir))).toBe(false);
    idle.destroy();
  });

  it("listens beside the data folder when its path is too long for a socket", async () => {
    const dir = join(dataDir(), "a".repeat(120));
    expect(controlPath(dir)).not.toContain(dir);
    const control = await serveControl(dir, async () => "far");
    try {
      expect(await askServer(dir, "models")).toBe("far");
    } finally {
      await control.close();
    }
  });
});
