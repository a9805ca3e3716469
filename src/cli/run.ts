import { hideBin } from "yargs/helpers";
import { main } from "./main.js";

/** The CLI as a program: bundled into `dist/ctxsmith-cli.cjs`, which `ctxsmith` (`cli/launch.ts`) runs. */
void main(hideBin(process.argv)).then((code) => {
  process.exitCode = code;
});
