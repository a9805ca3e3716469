import { describe, expect, it } from "vitest";
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
