import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { servesRoutes } from "../../src/graph/api-map.js";
import { IndexStore } from "../../src/store/store.js";
import { indexOnce } from "../helpers/index.js";
import { TempRepo } from "../helpers/repo.js";

describe("servesRoutes (whether links within a repository need its API map)", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  /** servesRoutes of `files`, indexed through the real pipeline, and how many files have HTTP facts. */
  async function serves(files: Record<string, string>): Promise<{ serves: boolean; withFacts: number }> {
    repo = TempRepo.create(files);
    await indexOnce(repo.root);
    const store = IndexStore.openForRead(join(repo.root, ".contextsmith"))!;
    try {
      const serves = servesRoutes(store);
      // Given the paths (as a query that loaded the lexical index has them), the same answer.
      expect(servesRoutes(store, [...store.allPaths()])).toBe(serves);
      return { serves, withFacts: store.parse.apiPaths().length };
    } finally {
      await store.close();
    }
  }

  it("is false where files only make requests", async () => {
    expect(await serves({ "client.py": "import requests\n\ndef fetch_user(uid):\n    return requests.get(f'/api/users/{uid}')\n", "util.py": "def helper():\n    return 1\n" })).toEqual({ serves: false, withFacts: 1 });
  });

  it("is true where a file serves a route, or is a Next.js route file", async () => {
    expect(await serves({ "server.ts": "import express from 'express';\nconst app = express();\napp.get('/api/users/:id', getUser);\nfunction getUser(req: any, res: any) { res.json({}); }\n" })).toMatchObject({ serves: true });
    repo?.dispose();
    expect(await serves({ "app/api/users/route.ts": "export async function GET() { return Response.json([]); }\n" })).toMatchObject({ serves: true });
  });

  it("reads the paths it is given: a Next.js route file among them is a route", async () => {
    repo = TempRepo.create({ "util.py": "def helper():\n    return 1\n" });
    await indexOnce(repo.root);
    const store = IndexStore.openForRead(join(repo.root, ".contextsmith"))!;
    try {
      expect(servesRoutes(store)).toBe(false);
      expect(servesRoutes(store, ["util.py", "pages/api/users.ts"])).toBe(true);
    } finally {
      await store.close();
    }
  });
});
