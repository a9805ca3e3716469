import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { TempRepo } from "../helpers/repo.js";

let repo: TempRepo;
let engine: Engine;

beforeAll(async () => {
  repo = TempRepo.create({
    "shop/runner.py": "def run_shop(port):\n    return port\n",
    "tests/helpers.py": "def run_shop(port):\n    return 'fake shop on %d' % port\n",
    "tests/test_only.py": "def make_fixture_cart():\n    return []\n",
  });
  engine = new Engine(repo.root, { jobs: 1 });
  await engine.index();
});
afterAll(async () => {
  await engine.close();
  repo.dispose();
});

async function references(task: string): Promise<string[]> {
  const weights = { lexical: 0, symbols: 0, semantic: 0, exactName: 0, history: 0, references: 1 };
  const { files } = await engine.rank(task, { refresh: false, ranking: { weights, testPenalty: 1 } });
  return files.map((f) => f.path);
}

describe("findDefinitions", () => {
  it("points a name defined in code and in tests at the code, unless the task is about tests", async () => {
    expect(await references("`run_shop` ignores the port")).toEqual(["shop/runner.py"]);
    expect(await references("the test helper `run_shop` ignores the port")).toEqual(["shop/runner.py", "tests/helpers.py"]);
    // Defined in tests alone: the tests it is.
    expect(await references("`make_fixture_cart` returns a list")).toEqual(["tests/test_only.py"]);
  });
});
