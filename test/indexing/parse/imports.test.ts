import { describe, expect, it } from "vitest";
import { extractFile } from "../../../src/indexing/parse/extract.js";
import { Grammars } from "../../../src/indexing/parse/grammars.js";
import { shellSourcePath } from "../../../src/indexing/parse/imports.js";

describe("shellSourcePath", () => {
  it("reads the script's own folder, however it is written, as ./", () => {
    expect(shellSourcePath("lib/common.sh")).toBe("lib/common.sh");
    expect(shellSourcePath("./lib/common.sh")).toBe("./lib/common.sh");
    expect(shellSourcePath(`"$(dirname "$0")/util.sh"`)).toBe("./util.sh");
    expect(shellSourcePath(`"$(dirname "\${BASH_SOURCE[0]}")/../env.sh"`)).toBe("./../env.sh");
    expect(shellSourcePath(`"\${BASH_SOURCE%/*}/x.sh"`)).toBe("./x.sh");
    expect(shellSourcePath(`"$SCRIPT_DIR/x.sh"`)).toBe("./x.sh");
    expect(shellSourcePath(`'\${DIR}/x.sh'`)).toBe("./x.sh");
  });

  it("reads a root variable's path from the root", () => {
    expect(shellSourcePath(`"$REPO_ROOT/scripts/env.sh"`)).toBe("scripts/env.sh");
  });

  it("names nothing for a path built at run time or outside the repository", () => {
    for (const written of [`"$HOME/.bashrc"`, "/etc/profile", "~/.env", `"$1"`, "lib/*.sh", "`pwd`/x.sh", `"$(pwd)/x.sh"`]) {
      expect(shellSourcePath(written), written).toBeNull();
    }
  });
});

// Each read of a node is a new object (no node cache): an import's parts are told apart by id.
describe("imports whose parts are told apart", () => {
  const grammars = new Grammars();

  it("kotlin: a one-segment import has no alias, an `as` import has its own", () => {
    expect(extractFile(grammars.get("kotlin")!, "kotlin", "import Foo\nimport a.b.C as D\n").imports).toEqual([
      { module: "", names: [{ name: "Foo", alias: "" }], alias: "", kind: "import", line: 1 },
      { module: "a.b", names: [{ name: "C", alias: "D" }], alias: "", kind: "import", line: 2 },
    ]);
  });

  it("c#: an alias is not taken for the namespace it names", () => {
    expect(extractFile(grammars.get("csharp")!, "csharp", "using Json = Newtonsoft.Json;\nusing System.IO;\n").imports).toEqual([
      { module: "Newtonsoft.Json", names: [], alias: "Json", kind: "using", line: 1 },
      { module: "System.IO", names: [], alias: "", kind: "using", line: 2 },
    ]);
  });
});
