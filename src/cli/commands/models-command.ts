import type { Argv } from "yargs";
import type { ModelState } from "../../runtime/runtime.js";
import { askServer } from "../../workspace/control.js";
import type { ModelsStatus } from "../../workspace/workspace.js";
import type { CliIO } from "../io.js";
import { dataDirOption, jsonOption, withWorkspace } from "../workspace-args.js";

interface ModelsArgs {
  "data-dir"?: string;
  json: boolean;
}

type ServerStatus = ModelsStatus & { server: { pid: number } | null };

const keepAlive = (k: ModelsStatus["policy"]["keepAlive"]): string => (k === "always" ? "always" : k <= 0 ? "released after each use" : `${Math.round(k / 1000)} s after the last use`);

function formatStatus(status: ServerStatus, dataDir: string): string {
  const lines = [`policy: ${status.policy.provider} ${status.policy.model}, kept ${keepAlive(status.policy.keepAlive)}`];
  if (!status.server) lines.push(`no workspace server runs on ${dataDir}: no model is loaded by it`);
  else {
    lines.push(`workspace server pid ${status.server.pid}:`);
    if (status.models.length === 0) lines.push("  no model used yet");
    for (const m of status.models) lines.push(`  ${m.role} ${m.provider} ${m.model}: ${m.loaded ? "loaded" : "not loaded"}${m.active > 0 ? `, ${m.active} operation${m.active > 1 ? "s" : ""} running` : ""}`);
  }
  for (const r of status.repos) lines.push(`${r.repo}: ${r.vectorsOf ? `vectors of ${r.vectorsOf}${r.complete ? "" : " (incomplete)"}` : "no vectors"}`);
  return `${lines.join("\n")}\n`;
}

/** `ctxsmith models status`: the embedding model of the workspace server, and each repository's vectors. */
export function modelsCommand(io: CliIO) {
  return {
    command: "models",
    describe: "The embedding model: models status (loaded?, operations running, policy, each repository's vectors)",
    builder: (y: Argv) =>
      dataDirOption(y)
        .command(
          "status",
          "Whether the workspace server has the model loaded, what runs on it, the keep-alive policy, and each repository's vectors",
          (a: Argv) => a.option("json", jsonOption),
          async (args: ModelsArgs) => {
            const status = await withWorkspace(args, io, async (ws) => {
              const served = (await askServer(ws.dataDir, "models")) as ServerStatus | null;
              return { dataDir: ws.dataDir, status: served ?? { server: null, ...ws.models(), models: [] } };
            });
            io.stdout.write(args.json ? `${JSON.stringify(status.status)}\n` : formatStatus(status.status, status.dataDir));
          },
        )
        .demandCommand(1, "Name an action: status."),
    handler: () => undefined,
  };
}

/** `ctxsmith unload`: the workspace server releases its models now (refused while they are busy). */
export function unloadCommand(io: CliIO) {
  return {
    command: "unload",
    describe: "Release the workspace server's embedding model now (refused with BUSY while an operation runs)",
    builder: (y: Argv) => dataDirOption(y).option("json", jsonOption),
    handler: async (args: ModelsArgs) => {
      const { dataDir, answer } = await withWorkspace(args, io, async (ws) => ({ dataDir: ws.dataDir, answer: (await askServer(ws.dataDir, "unload")) as { unloaded: ModelState[] } | null }));
      if (args.json) return void io.stdout.write(`${JSON.stringify({ server: answer !== null, unloaded: answer?.unloaded ?? [] })}\n`);
      if (!answer) io.stdout.write(`Nothing to unload: no workspace server runs on ${dataDir}.\n`);
      else if (answer.unloaded.length === 0) io.stdout.write("No model was loaded.\n");
      else io.stdout.write(`Unloaded ${answer.unloaded.map((m) => m.model).join(", ")}.\n`);
    },
  };
}
