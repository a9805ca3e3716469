import { open } from "lmdb";
const env = open({ path: "/tmp/sympy/.contextsmith/index.lmdb", noSubdir: true, maxDbs: 32, compression: false });
for (const name of ["incoming", "dependents", "refs", "defs", "graph", "links"]) {
  const db = env.openDB(name, {});
  console.log(name, db.getKeysCount());
}
const g = env.openDB("graph", {});
let calls = 0, un = 0, how = {};
for (const { value } of g.getRange()) { calls += value.calls.length; un += value.unresolved; for (const c of value.calls) how[c.how] = (how[c.how] ?? 0) + 1; }
console.log({ calls, un, how });
