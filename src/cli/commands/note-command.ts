import { existsSync } from "node:fs";
import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import { describeTarget, formatNote } from "../../notes/format.js";
import type { CliIO } from "../io.js";
import { queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";

interface NoteArgs extends QueryArgs {
  action: "add" | "list" | "rm";
  /** The note's text for `add`, its id for `rm`. */
  value?: string;
  file?: string;
  symbol?: string;
}

/** `ctxsmith note add|list|rm` */
export function noteCommand(io: CliIO) {
  return {
    command: "note <action> [value]",
    describe: "Pin decisions and gotchas to code: note add \"text\" (--file F | --symbol NAME), note list, note rm ID",
    builder: (y: Argv) =>
      queryOptions(y)
        .positional("action", { choices: ["add", "list", "rm"] as const, demandOption: true, describe: "add, list or rm" })
        .positional("value", { type: "string", describe: "The note's text (add) or its id (rm)" })
        .option("file", { alias: "f", type: "string", describe: "The file the note is about (add), or whose notes to list" })
        .option("symbol", { alias: "s", type: "string", describe: "The function, method or class the note is about (add), or whose notes to list" })
        .example('$0 note add "retries must stay idempotent" --symbol charge_card', "Pin a gotcha to a function")
        .example("$0 note list --file src/shop/payments.py", "Notes on a file and its symbols"),
    handler: async (args: NoteArgs) => {
      const file = args.file === undefined ? undefined : fileArg(io, args.file);
      if (args.action === "rm") {
        if (!args.value) throw new ContextSmithError("INVALID_ARGUMENT", "Give the id of the note to remove: ctxsmith note rm ID (see note list).");
        await withQueryEngine({ ...args, refresh: false }, io, async (engine) => engine.removeNote(args.value!));
        if (args.json) io.stdout.write(`${JSON.stringify({ removed: args.value })}\n`);
        else io.stdout.write(`Removed note ${args.value}.\n`);
        return;
      }
      if (args.action === "add") {
        if (!args.value) throw new ContextSmithError("INVALID_ARGUMENT", 'Give the note\'s text: ctxsmith note add "text" --file F (or --symbol NAME).');
        const note = await withQueryEngine(args, io, (engine, options) => engine.addNote(args.value!, { path: file, symbol: args.symbol }, options));
        if (args.json) io.stdout.write(`${JSON.stringify({ note })}\n`);
        else io.stdout.write(`Added note ${note.id} on ${describeTarget(note)}.\n`);
        return;
      }
      if (args.value !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "note list takes no text: filter with --file or --symbol.");
      const notes = await withQueryEngine(args, io, (engine, options) => engine.notes({ path: file, symbol: args.symbol }, options));
      if (args.json) io.stdout.write(`${JSON.stringify({ notes })}\n`);
      else io.stdout.write(notes.length === 0 ? "No notes.\n" : notes.map(formatNote).join(""));
    },
  };
}

/** A path that exists from here is taken as written; otherwise it is read within the repository. */
function fileArg(io: CliIO, file: string): string {
  const absolute = io.resolvePath(file);
  return existsSync(absolute) ? absolute : file;
}
